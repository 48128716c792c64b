import {
  CHANNEL_PERMISSION_BITS,
  DEFAULT_WELCOME_SETTINGS,
  guildSetupCacheKey,
  type HistoryAction,
  routePath,
  routes,
  type SetupChecklist,
  WELCOME_MESSAGE_MAX,
  WELCOME_MESSAGES,
  type WelcomeSettings,
} from '@spacecadet/contract';
import { saveWelcomeSettings } from '@spacecadet/db/queries/welcome';
import { guildHistory, welcomeSettings } from '@spacecadet/db/schema';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
const station = GUILDS.station;
const ROLES = SANDBOX_IDS.roles;
const BOT_ROLE = ROLES.stationBot;
const welcomePath = routePath(routes.putWelcome, { guildId: station });

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.database.db.delete(welcomeSettings).where(eq(welcomeSettings.guildId, station));
  await fetch(`${h.sandbox.url}/_sandbox/channels/${CHANNELS.general}/permissions/${BOT_ROLE}`, {
    method: 'DELETE',
  });
});

const put = (payload: object) =>
  h.app.inject({ method: 'PUT', url: welcomePath, headers: { authorization: ada }, payload });
const get = async () =>
  (
    await h.app.inject({ method: 'GET', url: welcomePath, headers: { authorization: ada } })
  ).json<WelcomeSettings>();

async function expectRefused(payload: object, message: string | RegExp) {
  const before = await get();
  const response = await put(payload);
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ error: string; message: string }>();
  expect(body.error).toBe('invalid_input');
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
  expect(await get()).toEqual(before);
  return body;
}

/** An admin denies the bot Attach Files in #general (Discord's channel settings). */
async function denyAttachFiles() {
  const res = await fetch(`${h.sandbox.url}/_sandbox/channels/${CHANNELS.general}/permissions/${BOT_ROLE}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 0, allow: '0', deny: CHANNEL_PERMISSION_BITS['Attach Files'].toString() }),
  });
  expect(res.status).toBe(200);
}

const undo = (entryId: number) =>
  h.app.inject({
    method: 'POST',
    url: routePath(routes.undoHistory, { guildId: station, entryId }),
    headers: { authorization: ada },
    payload: { confirm: true },
  });

async function lastEntry(action: HistoryAction) {
  const [row] = await h.database.db
    .select()
    .from(guildHistory)
    .where(and(eq(guildHistory.guildId, station), eq(guildHistory.action, action)))
    .orderBy(desc(guildHistory.id))
    .limit(1);
  if (!row) throw new Error(`no ${action} entry`);
  return row;
}

describe('GET and PUT /welcome', () => {
  it('answers the defaults for a server that never saved', async () => {
    expect(await get()).toEqual(DEFAULT_WELCOME_SETTINGS);
  });

  it('merges a partial body over what is stored and answers the whole settings', async () => {
    const first = await put({ enabled: true, channel_id: CHANNELS.general, message: 'Hi {user}!' });
    expect(first.statusCode, first.body).toBe(200);
    const second = await put({
      auto_roles: [ROLES.stationCrew, ROLES.stationCrew],
      auto_role_delay_s: 60,
      sticky_roles: true,
      sticky_exclude_role_ids: [ROLES.stationModerators],
    });
    expect(second.statusCode, second.body).toBe(200);
    const expected: WelcomeSettings = {
      ...DEFAULT_WELCOME_SETTINGS,
      enabled: true,
      channel_id: CHANNELS.general,
      message: 'Hi {user}!',
      auto_roles: [ROLES.stationCrew],
      auto_role_delay_s: 60,
      sticky_roles: true,
      sticky_exclude_role_ids: [ROLES.stationModerators],
    };
    expect(second.json()).toEqual(expected);
    expect(await get()).toEqual(expected);
    expect((await lastEntry('welcome.update')).summary).toContain('auto-role delay 0 s → 60 s');
  });

  it('refuses a channel of another server and a role of another server, naming the field', async () => {
    await expectRefused({ channel_id: CHANNELS.orbitHangar }, /channel/i);
    await expectRefused({ goodbye_channel_id: CHANNELS.orbitHangar }, /goodbye/i);
    await expectRefused({ sticky_exclude_role_ids: [ROLES.orbitBot] }, /sticky_exclude_role_ids/);
  });

  it('refuses an auto-role above the bot, and a managed one, naming the role', async () => {
    await expectRefused(
      { auto_roles: [ROLES.stationCrew, ROLES.stationModerators] },
      WELCOME_MESSAGES.roleNotGivable('Moderators'),
    );
    await expectRefused({ bot_auto_roles: [BOT_ROLE] }, WELCOME_MESSAGES.roleNotGivable('Space Cadet'));
    await expectRefused({ auto_roles: [station] }, /@everyone/);
    // Kept out of sticky roles is not given: any role of the server will do.
    expect((await put({ sticky_exclude_role_ids: [ROLES.stationModerators, BOT_ROLE] })).statusCode).toBe(
      200,
    );
  });

  it('refuses turning the welcome or the goodbye on without a channel', async () => {
    await expectRefused({ enabled: true }, WELCOME_MESSAGES.channelRequired);
    await expectRefused({ goodbye_enabled: true }, WELCOME_MESSAGES.goodbyeChannelRequired);
    expect((await put({ enabled: true, channel_id: CHANNELS.general })).statusCode).toBe(200);
    await expectRefused({ channel_id: null }, WELCOME_MESSAGES.channelRequired);
  });

  it('refuses a template longer than Discord allows, with the contract’s sentence', async () => {
    await expectRefused(
      { message: 'x'.repeat(WELCOME_MESSAGE_MAX + 1) },
      `message is at most ${WELCOME_MESSAGE_MAX} characters`,
    );
    await expectRefused({ send_when: 'later' }, 'send_when must be join or onboarding_complete');
  });

  it('needs Attach Files in the welcome channel for the card', async () => {
    await denyAttachFiles();
    expect((await put({ channel_id: CHANNELS.general })).statusCode).toBe(200);
    await expectRefused({ card: true }, /^Missing permission Attach Files in #general\./);
  });

  it('a stored channel or role deleted since does not block an unrelated save', async () => {
    const gone = '300000000000000999';
    await saveWelcomeSettings(h.database.db, station, {
      ...DEFAULT_WELCOME_SETTINGS,
      enabled: true,
      channel_id: gone,
      auto_roles: [gone],
    });
    const response = await put({ dm_enabled: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ channel_id: gone, auto_roles: [gone], dm_enabled: true });
  });
});

describe('History', () => {
  it('undo writes the settings before back', async () => {
    expect((await put({ enabled: true, channel_id: CHANNELS.general })).statusCode).toBe(200);
    const before = await get();
    const changed = await put({ message: 'Changed {user}', auto_roles: [ROLES.stationCrew], card: true });
    expect(changed.statusCode, changed.body).toBe(200);
    const entry = await lastEntry('welcome.update');
    expect(entry.summary).toContain('welcome message edited');
    const undone = await undo(entry.id);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await get()).toEqual(before);
  });

  it('refuses an undo whose channel is not the server’s any more, naming it', async () => {
    const gone = '300000000000000998';
    await saveWelcomeSettings(h.database.db, station, {
      ...DEFAULT_WELCOME_SETTINGS,
      goodbye_channel_id: gone,
    });
    expect((await put({ goodbye_channel_id: CHANNELS.general })).statusCode).toBe(200);
    const entry = await lastEntry('welcome.update');
    const refused = await undo(entry.id);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/goodbye/i);
    expect((await get()).goodbye_channel_id).toBe(CHANNELS.general);
  });
});

describe('setup checklist', () => {
  it('names the welcome channel where the bot cannot attach the card', async () => {
    await saveWelcomeSettings(h.database.db, station, {
      ...DEFAULT_WELCOME_SETTINGS,
      enabled: true,
      channel_id: CHANNELS.general,
      card: true,
    });
    await denyAttachFiles();
    await h.app.services.redis.del(guildSetupCacheKey(station));
    const setup = await h.app.inject({
      method: 'GET',
      url: routePath(routes.getSetupChecklist, { guildId: station }),
      headers: { authorization: ada },
    });
    expect(setup.statusCode, setup.body).toBe(200);
    const channels = setup.json<SetupChecklist>().lines.find((l) => l.id === 'channels');
    expect(channels?.items).toContain('Welcome messages: the bot lacks Attach Files in #general');
    expect(channels?.fix?.href).toBe('/dashboard/welcome');
  });
});
