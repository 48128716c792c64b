import { type RouteBody, type RouteDef, type RouteName, routePath, routes } from '@spacecadet/contract';
import { roleMenus } from '@spacecadet/db';
import { expect } from 'vitest';
import { CHANNELS, GUILDS, type Harness } from './harness.ts';

/** A role menu of one button on a role the bot can give. */
const ROLE_MENU_SAMPLE: RouteBody<'createRoleMenu'> = {
  title: 'Crew roles',
  channel_id: CHANNELS.roles,
  style: 'buttons',
  mode: 'normal',
  options: [{ role_id: '300000000000000021', label: 'Crew' }],
};

/** A question of the server's own: one option on Crew, one opening a channel. */
const QUESTION_SAMPLE: RouteBody<'createPersonalityQuestion'> = {
  title: 'Favourite planet',
  options: [
    { label: 'Mars', role_id: '300000000000000021' },
    { label: 'Venus', channel_ids: [CHANNELS.general] },
  ],
};

/** A valid body for every route that takes one, so only auth decides the outcome. */
export const SAMPLE_BODIES: { [N in RouteName]?: NonNullable<RouteBody<N>> } = {
  exchangeCode: { code: 'abc', code_verifier: 'v'.repeat(43) },
  linkRoleConnection: { code: 'a-code-discord-never-gave' },
  pickLinkedServer: { guild_id: '300000000000000001' },
  putConfig: { color_roles_mode: 'basic', welcome: { enabled: true } },
  putReactionRoles: {
    color_roles: [{ emoji: '🔴', role_id: '300000000000000021', label: 'Red' }],
    personality_roles: [],
  },
  setColorRolesChannel: { channel_id: CHANNELS.roles },
  putColorPalette: {
    colors: [{ name: 'Teal', hex: '#008080', shades: [{ name: 'Deep Teal', hex: '#005F5F' }] }],
  },
  setReactionListChannel: { list: 'color_roles', channel_id: CHANNELS.roles },
  expandColorGroup: { group_id: 1, is_expanded: true },
  initPersonalityRoles: { channel_id: CHANNELS.roles },
  setPersonalityChannel: { channel_id: CHANNELS.roles },
  togglePersonalityQuestion: { enabled: false },
  setPersonalityOnboarding: { enabled: false },
  createPersonalityQuestion: QUESTION_SAMPLE,
  updatePersonalityQuestion: { ...QUESTION_SAMPLE, title: 'Favourite planet, renamed' },
  /** The ten questions Initialize seeds (seedEditedRows), in a new order. */
  orderPersonalityQuestions: { question_ids: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1] },
  putLeveling: { enabled: true, xp_per_message: 15 },
  createLevelingRole: { role_name: 'Veteran', level_required: 5, is_image_role: false },
  updateLevelingRole: { role_name: 'Elder' },
  createBoost: { multiplier: 2, user_id: null, expires_at: null },
  createRoleBoost: { role_id: '300000000000000021', multiplier: 3, expires_at: null },
  createChannelBoost: { channel_id: CHANNELS.general, multiplier: 2, expires_at: null },
  setMemberXp: { xp: 120 },
  endSeason: { name: 'Sample season', keep_rewards: true },
  importXp: { players: [{ id: '200000000000000003', xp: 120 }] },
  createRoleMenu: ROLE_MENU_SAMPLE,
  putWelcome: { message: 'Welcome, {user}!', auto_role_delay_s: 30 },
  undoHistory: { confirm: false },
  updateRoleMenu: { ...ROLE_MENU_SAMPLE, title: 'Crew roles, renamed' },
  /** nia, Crew, ten minutes. */
  createTempRole: { user_id: '200000000000000003', role_id: '300000000000000021', duration_s: 600 },
};

export const EXTRA_PARAMS: Record<string, string | number> = {
  question_type: 'zodiac',
  /** The first question Initialize seeds (seedEditedRows). */
  questionId: 1,
  roleId: 1,
  boostId: 1,
  menuId: '00000000-0000-4000-8000-00000000000a',
  /** nia, a member of Sandbox Station. */
  userId: '200000000000000003',
  /** No such history entry: an undo of a sample request changes nothing (404). */
  entryId: 999_999,
  tempRoleId: 1,
};

/** The query string of a route whose query has required fields, so its sample request is valid. */
export const SAMPLE_QUERIES: { [N in RouteName]?: string } = {
  searchMembers: 'query=ni',
};

/** `url` with the route's sample query, if it needs one. */
export function withSampleQuery(name: RouteName, url: string): string {
  const query = SAMPLE_QUERIES[name];
  return query === undefined ? url : `${url}?${query}`;
}

export interface SampleRequest {
  method: RouteDef['method'];
  url: string;
  payload?: object;
}

/** A request for `name` against `guildId` with the sample body. */
export function sampleRequest(name: RouteName, guildId: string): SampleRequest {
  const def: RouteDef = routes[name];
  const url = withSampleQuery(name, routePath(def, { guildId, ...EXTRA_PARAMS }));
  const body = SAMPLE_BODIES[name];
  return body === undefined ? { method: def.method, url } : { method: def.method, url, payload: body };
}

export const GUILD_ROUTES = (Object.keys(routes) as RouteName[]).filter(
  (name) => routes[name].auth === 'guild',
);
export const WRITE_ROUTES = (Object.keys(routes) as RouteName[]).filter(
  (name) => routes[name].method !== 'GET' && 'body' in routes[name],
);

/**
 * The rows the routes that edit existing things expect: reward role 1, boost 1, the zodiac
 * question, and the role menu of EXTRA_PARAMS.menuId (a row of that id: the API picks ids itself).
 */
export async function seedEditedRows(h: Harness, session: string): Promise<void> {
  for (const name of ['createLevelingRole', 'createBoost', 'initPersonalityRoles'] as const) {
    const response = await h.app.inject({
      ...sampleRequest(name, GUILDS.station),
      headers: { authorization: session },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }
  await h.database.db.insert(roleMenus).values({
    id: String(EXTRA_PARAMS.menuId),
    guildId: GUILDS.station,
    title: ROLE_MENU_SAMPLE.title,
    channelId: ROLE_MENU_SAMPLE.channel_id,
    style: 'buttons',
    mode: 'normal',
    options: ROLE_MENU_SAMPLE.options,
  });
}
