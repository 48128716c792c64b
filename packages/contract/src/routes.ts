import { z } from 'zod';
import {
  Boost,
  Channel,
  ColorRolesState,
  Guild,
  GuildConfig,
  JobAccepted,
  JobStatus,
  LevelingRole,
  LevelingSettings,
  LevelingState,
  PersonalityQuestion,
  PersonalityRolesState,
  ReactionRolesState,
  SessionTokens,
  SessionUser,
  Snowflake,
  WriteReceipt,
} from './entities.ts';
import { ErrorBody } from './errors.ts';
import type { GuildRefSpec } from './guild-refs.ts';
import {
  BoostParams,
  ChannelBody,
  CreateBoostBody,
  CreateLevelingRoleBody,
  CreateRoleBoostBody,
  ExchangeBody,
  ExpandGroupBody,
  GuildParams,
  InstallCallbackQuery,
  InstallQuery,
  InviteQuery,
  JobParams,
  LevelingRoleParams,
  PutConfigBody,
  PutLevelingBody,
  PutReactionRolesBody,
  QuestionParams,
  ToggleQuestionBody,
  UpdateLevelingRoleBody,
} from './requests.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/**
 * public: no session. session: a valid session. guild: a session whose user owns or manages
 * (ADMINISTRATOR or MANAGE_GUILD) the `:guildId` guild. group: a session whose user manages some
 * guild (403 otherwise); the row is then sought among that user's guilds only, so a row of another
 * guild answers the same 404 as a missing one.
 */
export type RouteAuth = 'public' | 'session' | 'guild' | 'group';

export interface RouteDef {
  readonly method: HttpMethod;
  readonly path: string;
  readonly auth: RouteAuth;
  readonly summary: string;
  readonly tag: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Success status -> body schema (`null`: no body). Error statuses are added by `errorResponses`. */
  readonly responses: Readonly<Record<number, z.ZodType | null>>;
  /** Answers a redirect (browser navigation), not JSON. */
  readonly redirect?: boolean;
  /** The action needs the bot in the guild (409 bot_not_in_guild otherwise). */
  readonly needsBot?: boolean;
  /** Body ids that must name a channel, role or member of the path's guild (400 otherwise). */
  readonly guildRefs?: GuildRefSpec;
}

const none = null;
const ok = <T extends z.ZodType>(schema: T) => ({ 200: schema }) as const;
const accepted = { 202: JobAccepted } as const;
const noContent = { 204: none } as const;

function route<const R extends RouteDef>(def: R): R {
  return def;
}

export const routes = {
  // --- health ---
  healthz: route({
    method: 'GET',
    path: '/healthz',
    auth: 'public',
    tag: 'health',
    summary: 'Liveness',
    responses: ok(z.object({ status: z.literal('ok') })),
  }),
  readyz: route({
    method: 'GET',
    path: '/readyz',
    auth: 'public',
    tag: 'health',
    summary: 'Readiness: Postgres and Redis answering',
    responses: ok(
      z.object({ status: z.enum(['ok', 'degraded']), postgres: z.boolean(), redis: z.boolean() }),
    ),
  }),

  // --- sign-in and install ---
  getInviteUrl: route({
    method: 'GET',
    path: '/api/invite-url',
    auth: 'public',
    tag: 'auth',
    summary: 'Bot invite URL, optionally preselecting a guild',
    query: InviteQuery,
    responses: ok(z.object({ url: z.url() })),
  }),
  exchangeCode: route({
    method: 'POST',
    path: '/api/auth/discord/exchange',
    auth: 'public',
    tag: 'auth',
    summary: 'Exchange an OAuth code (PKCE) for a Space Cadet session',
    body: ExchangeBody,
    responses: ok(z.object({ user: SessionUser, tokens: SessionTokens })),
  }),
  getSession: route({
    method: 'GET',
    path: '/api/auth/session',
    auth: 'session',
    tag: 'auth',
    summary: 'The signed-in user of this session',
    responses: ok(z.object({ user: SessionUser, is_owner: z.boolean(), expires_at: z.string() })),
  }),
  logout: route({
    method: 'POST',
    path: '/api/auth/logout',
    auth: 'session',
    tag: 'auth',
    summary: 'Revoke the session',
    responses: noContent,
  }),
  listAdminGuilds: route({
    method: 'GET',
    path: '/api/discord/me/guilds',
    auth: 'session',
    tag: 'auth',
    summary: 'Guilds the user owns or manages (ADMINISTRATOR or MANAGE_GUILD)',
    responses: ok(z.array(Guild)),
  }),
  botInGuild: route({
    method: 'GET',
    path: '/api/bot/in-guild/:guildId',
    auth: 'public',
    tag: 'auth',
    summary: 'Whether the bot is in the guild',
    params: GuildParams,
    responses: ok(z.object({ inGuild: z.boolean() })),
  }),
  install: route({
    method: 'GET',
    path: '/install',
    auth: 'public',
    tag: 'auth',
    summary: 'Redirect to the bot install (authorize) page',
    query: InstallQuery,
    redirect: true,
    responses: { 302: none },
  }),
  installCallback: route({
    method: 'GET',
    path: '/install/callback',
    auth: 'public',
    tag: 'auth',
    summary: 'Bot install return: lands on the dashboard with install=success&guild_id=',
    query: InstallCallbackQuery,
    redirect: true,
    responses: { 302: none },
  }),
  getJob: route({
    method: 'GET',
    path: '/api/jobs/:jobId',
    auth: 'session',
    tag: 'jobs',
    summary: "State and progress of a job (only for users who manage the job's guild)",
    params: JobParams,
    responses: ok(JobStatus),
  }),

  // --- config and reaction roles ---
  getConfig: route({
    method: 'GET',
    path: '/api/guilds/:guildId/config',
    auth: 'guild',
    tag: 'config',
    summary: 'Raw JSON config',
    params: GuildParams,
    responses: ok(GuildConfig),
  }),
  putConfig: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/config',
    auth: 'guild',
    tag: 'config',
    summary: 'Replace the raw JSON config (a JSON object, at most 64 KiB)',
    params: GuildParams,
    body: PutConfigBody,
    responses: ok(WriteReceipt),
  }),
  getReactionRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/reaction-roles',
    auth: 'guild',
    tag: 'config',
    summary: 'Reaction-roles lists',
    params: GuildParams,
    responses: ok(ReactionRolesState),
  }),
  putReactionRoles: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/reaction-roles',
    auth: 'guild',
    tag: 'config',
    summary: 'Replace both reaction-roles lists',
    params: GuildParams,
    body: PutReactionRolesBody,
    guildRefs: { 'color_roles[].role_id': 'role', 'personality_roles[].role_id': 'role' },
    responses: ok(WriteReceipt),
  }),
  listChannels: route({
    method: 'GET',
    path: '/api/guilds/:guildId/channels',
    auth: 'guild',
    tag: 'config',
    summary: "Text channels of the guild (through the bot's token)",
    params: GuildParams,
    needsBot: true,
    responses: ok(z.object({ channels: z.array(Channel) })),
  }),

  // --- color roles ---
  getColorRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/color-roles',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Palette groups, panel channel and mode',
    params: GuildParams,
    responses: ok(ColorRolesState),
  }),
  setColorRolesChannel: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/color-roles/channel',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Set the panel channel',
    params: GuildParams,
    body: ChannelBody,
    guildRefs: { channel_id: 'channel' },
    responses: ok(z.object({ channel_id: Snowflake })),
  }),
  generateColorRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/color-roles/generate-roles',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Seed the palette if empty and create missing roles (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  postColorPanel: route({
    method: 'POST',
    path: '/api/guilds/:guildId/color-roles/post-panel',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Post or update the color panel in the panel channel (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  resetColorRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/color-roles/reset',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Delete the created roles and the palette (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  expandColorGroup: route({
    method: 'PUT',
    path: '/api/color-groups/expand',
    auth: 'group',
    tag: 'color-roles',
    summary: 'Set a color group expanded flag',
    body: ExpandGroupBody,
    responses: ok(ExpandGroupBody),
  }),

  // --- personality roles ---
  getPersonalityRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/personality-roles',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Personality roles state',
    params: GuildParams,
    responses: ok(PersonalityRolesState),
  }),
  initPersonalityRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/personality-roles/init',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Seed the question catalog with an assignment channel',
    params: GuildParams,
    body: ChannelBody,
    guildRefs: { channel_id: 'channel' },
    responses: ok(PersonalityRolesState),
  }),
  setPersonalityChannel: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/personality-roles/channel',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Set the assignment channel',
    params: GuildParams,
    body: ChannelBody,
    guildRefs: { channel_id: 'channel' },
    responses: ok(z.object({ channel_id: Snowflake })),
  }),
  togglePersonalityQuestion: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/personality-roles/questions/:question_type/toggle',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Enable or disable a question category',
    params: QuestionParams,
    body: ToggleQuestionBody,
    responses: ok(PersonalityQuestion),
  }),
  generatePersonalityRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/personality-roles/generate-roles',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Create one role per option (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  postPersonalityMessages: route({
    method: 'POST',
    path: '/api/guilds/:guildId/personality-roles/post-panel',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Post or update one message per enabled question (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  resetPersonalityRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/personality-roles/reset',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Remove questions, options, created roles and message ids (job)',
    params: GuildParams,
    responses: accepted,
  }),
  refreshPersonalityRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/tasks/personality-roles/refresh',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Queue a refresh (recreate deleted roles, re-post stale messages); no body',
    params: GuildParams,
    responses: noContent,
  }),

  // --- leveling ---
  getLeveling: route({
    method: 'GET',
    path: '/api/guilds/:guildId/leveling',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Leveling settings, reward roles and boosts',
    params: GuildParams,
    responses: ok(LevelingState),
  }),
  putLeveling: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/leveling',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Update leveling settings (any subset)',
    params: GuildParams,
    body: PutLevelingBody,
    guildRefs: { announcement_channel: 'channel', daily_overview_channel: 'channel' },
    responses: ok(LevelingSettings),
  }),
  syncLevelingRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/leveling/tasks/refresh',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Sync Roles: create pending roles and re-apply rewards (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  resendLevelingOverview: route({
    method: 'POST',
    path: '/api/guilds/:guildId/leveling/tasks/resend-overview',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Post the daily overview again (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  resetLevelingConfig: route({
    method: 'POST',
    path: '/api/guilds/:guildId/leveling/reset-config',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Reset only the leveling settings; users, roles and boosts are kept',
    params: GuildParams,
    responses: ok(LevelingSettings),
  }),
  resetLevelingAll: route({
    method: 'POST',
    path: '/api/guilds/:guildId/leveling/reset-all',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Delete all leveling data: settings, users, roles and boosts',
    params: GuildParams,
    responses: noContent,
  }),
  createLevelingRole: route({
    method: 'POST',
    path: '/api/guilds/:guildId/leveling/roles',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Add a level reward role (at most 15)',
    params: GuildParams,
    body: CreateLevelingRoleBody,
    responses: { 201: LevelingRole },
  }),
  updateLevelingRole: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/leveling/roles/:roleId',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Edit a level reward role',
    params: LevelingRoleParams,
    body: UpdateLevelingRoleBody,
    responses: ok(LevelingRole),
  }),
  deleteLevelingRole: route({
    method: 'DELETE',
    path: '/api/guilds/:guildId/leveling/roles/:roleId',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Delete a level reward role',
    params: LevelingRoleParams,
    responses: noContent,
  }),
  createBoost: route({
    method: 'POST',
    path: '/api/guilds/:guildId/leveling/boosts',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Add a server-wide or member XP boost',
    params: GuildParams,
    body: CreateBoostBody,
    guildRefs: { user_id: 'member' },
    responses: { 201: Boost },
  }),
  createRoleBoost: route({
    method: 'POST',
    path: '/api/guilds/:guildId/leveling/role-boosts',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Add an XP boost for members holding a role',
    params: GuildParams,
    body: CreateRoleBoostBody,
    guildRefs: { role_id: 'role' },
    responses: { 201: Boost },
  }),
  deleteBoost: route({
    method: 'DELETE',
    path: '/api/guilds/:guildId/leveling/boosts/:boostId',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Remove a boost',
    params: BoostParams,
    responses: noContent,
  }),
  pruneLeavers: route({
    method: 'POST',
    path: '/api/guilds/:guildId/leveling/prune-leavers',
    auth: 'guild',
    tag: 'leveling',
    summary: 'Delete stored XP of members who left (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

/** Error statuses each kind of route may answer, all with the one error body. */
export function errorResponses(def: RouteDef): Record<number, typeof ErrorBody> {
  const statuses = [400, 429, 500, 503];
  if (def.auth !== 'public') statuses.push(401);
  if (def.auth === 'guild' || def.auth === 'group' || def.path.startsWith('/api/jobs'))
    statuses.push(403, 404);
  // Checking body ids against the guild asks Discord with the bot's token: the bot must be there.
  const asksDiscord = def.needsBot === true || def.guildRefs !== undefined;
  if (asksDiscord || def.tag === 'color-roles') statuses.push(409);
  if (def.tag === 'color-roles') statuses.push(501);
  if (def.auth === 'session' || asksDiscord || def.path.includes('channels')) statuses.push(502);
  return Object.fromEntries(statuses.sort().map((s) => [s, ErrorBody]));
}

type ParamsOf<R> = R extends { params: z.ZodObject } ? z.input<R['params']> : undefined;
type QueryOf<R> = R extends { query: z.ZodObject } ? z.input<R['query']> : undefined;
type BodyOf<R> = R extends { body: z.ZodType } ? z.input<R['body']> : undefined;
type SuccessStatus<R extends RouteDef> = Extract<keyof R['responses'], 200 | 201 | 202 | 204>;
export type RouteParams<N extends RouteName> = ParamsOf<Routes[N]>;
export type RouteQuery<N extends RouteName> = QueryOf<Routes[N]>;
export type RouteBody<N extends RouteName> = BodyOf<Routes[N]>;
export type RouteResponse<N extends RouteName> = Routes[N]['responses'][SuccessStatus<
  Routes[N]
>] extends infer S
  ? S extends z.ZodType
    ? z.output<S>
    : undefined
  : never;

/** Fills `:name` segments: routePath(routes.getConfig, { guildId: '1' }) -> /api/guilds/1/config. */
export function routePath(def: RouteDef, params?: Record<string, string | number>): string {
  return def.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${def.path}`);
    return encodeURIComponent(String(value));
  });
}

/** The success schema of a route (the first 2xx with a body), for parsing responses. */
export function successSchema(def: RouteDef): z.ZodType | null {
  for (const [status, schema] of Object.entries(def.responses)) {
    if (Number(status) >= 200 && Number(status) < 300) return schema;
  }
  return null;
}
