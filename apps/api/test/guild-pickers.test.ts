import {
  type GuildRole,
  guildRolesCacheKey,
  type MemberSummary,
  routePath,
  routes,
} from '@spacecadet/contract';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
const auth = { ada: '', nia: '' };
const { roles: ROLES } = SANDBOX_IDS;

beforeAll(async () => {
  h = await startHarness();
  auth.ada = await signIn(h, USERS.ada);
  auth.nia = await signIn(h, USERS.nia);
});
afterAll(async () => {
  await h?.close();
});

const rolesUrl = (guildId: string = GUILDS.station) => routePath(routes.listRoles, { guildId });
const searchUrl = (query: string, guildId: string = GUILDS.station) =>
  `${routePath(routes.searchMembers, { guildId })}${query === '' ? '' : `?${query}`}`;
const get = (url: string, authorization = auth.ada) =>
  h.app.inject({ method: 'GET', url, headers: { authorization } });

/** How many times the sandbox was asked for this path (bot calls, any query string). */
async function discordCalls(path: string): Promise<number> {
  const log = (await (await fetch(`${h.sandbox.url}/_sandbox/requests`)).json()) as Array<{ path: string }>;
  return log.filter((entry) => entry.path.endsWith(path)).length;
}

async function searchNames(query: string): Promise<string[]> {
  const response = await get(searchUrl(query));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ members: MemberSummary[] }>().members.map((m) => m.display_name);
}

describe('GET /api/guilds/:guildId/roles', () => {
  it('lists every role but @everyone, highest first, with color and managed', async () => {
    const response = await get(rolesUrl());
    expect(response.statusCode, response.body).toBe(200);
    const { roles } = response.json<{ roles: GuildRole[] }>();
    expect(roles.map((role) => role.id)).toEqual([
      ROLES.stationModerators,
      ROLES.stationBot,
      ROLES.stationManagers,
      ROLES.stationCrew,
    ]);
    expect(roles.map((role) => role.id)).not.toContain(GUILDS.station);
    expect(roles.find((role) => role.id === ROLES.stationCrew)).toEqual({
      id: ROLES.stationCrew,
      name: 'Crew',
      color: 0x2ecc71,
      position: 1,
      managed: false,
    });
    expect(roles.find((role) => role.id === ROLES.stationBot)?.managed).toBe(true);
  });

  it('is cached per guild: a second read does not ask Discord', async () => {
    const rolesPath = `/guilds/${GUILDS.station}/roles`;
    await h.app.services.redis.del(guildRolesCacheKey(GUILDS.station));
    const before = await discordCalls(rolesPath);
    expect((await get(rolesUrl())).statusCode).toBe(200);
    expect(await discordCalls(rolesPath)).toBe(before + 1);
    expect((await get(rolesUrl())).statusCode).toBe(200);
    expect(await discordCalls(rolesPath)).toBe(before + 1);
  });

  it('is for the guild admins only, and needs the bot', async () => {
    expect((await h.app.inject({ method: 'GET', url: rolesUrl() })).statusCode).toBe(401);
    expect((await get(rolesUrl(), auth.nia)).statusCode).toBe(403);
    expect((await get(rolesUrl(GUILDS.orbit))).statusCode).toBe(403);
    // Ada is an admin of Quiet Quarters, where the bot is not.
    const quiet = await get(rolesUrl(GUILDS.quiet));
    expect(quiet.statusCode, quiet.body).toBe(409);
    expect(quiet.json().error).toBe('bot_not_in_guild');
  });
});

describe('GET /api/guilds/:guildId/members/search', () => {
  it('finds members by the start of their name, any case, with display name and avatar', async () => {
    const response = await get(searchUrl('query=NI'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      members: [
        {
          id: USERS.nia,
          username: 'nia',
          display_name: 'Nia',
          avatar: '0c3f0c3f0c3f0c3f0c3f0c3f0c3f0c3f',
        },
      ],
    });
    // Rex is a user but not a member of Station.
    expect(await searchNames('query=rex')).toEqual([]);
    expect(await searchNames('query=zzz')).toEqual([]);
  });

  it('answers a typed member id with that member, and nothing for a non-member id', async () => {
    expect(await searchNames(`query=${USERS.mo}`)).toEqual(['Mo']);
    expect(await searchNames(`query=${USERS.rex}`)).toEqual([]);
  });

  it('takes a limit', async () => {
    // Mo's nickname also starts with "ni", as Nia's name does.
    await fetch(`${h.sandbox.apiBase}/v10/guilds/${GUILDS.station}/members/${USERS.mo}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bot ${SANDBOX_BOT_TOKEN}` },
      body: JSON.stringify({ nick: 'Nimbus' }),
    });
    expect(await searchNames('query=ni&limit=100')).toHaveLength(2);
    expect(await searchNames('query=ni&limit=1')).toHaveLength(1);
  });

  it('caches a search briefly per guild and query', async () => {
    const searchPath = `/guilds/${GUILDS.station}/members/search`;
    await searchNames('query=ad');
    const before = await discordCalls(searchPath);
    expect(await searchNames('query=ad')).toEqual(['Ada']);
    expect(await searchNames('query=AD')).toEqual(['Ada']);
    expect(await discordCalls(searchPath)).toBe(before);
    await searchNames('query=ada');
    expect(await discordCalls(searchPath)).toBe(before + 1);
  });

  it('needs the bot in the server, and says so with the 409 its route declares', async () => {
    // Ada is an admin of Quiet Quarters, where the bot is not.
    const quiet = await get(searchUrl('query=ni', GUILDS.quiet));
    expect(quiet.statusCode, quiet.body).toBe(409);
    expect(quiet.json().error).toBe('bot_not_in_guild');
    expect(routes.searchMembers.errors).toContain(409);
  });

  it.each([
    ['', 'query is required: the start of a name, or a member id'],
    ['query=', 'query is required: the start of a name, or a member id'],
    ['query=%20%20', 'query is required: the start of a name, or a member id'],
    [`query=${'x'.repeat(101)}`, 'query is at most 100 characters'],
    ['query=ni&limit=0', 'limit must be a whole number from 1 to 100'],
    ['query=ni&limit=101', 'limit must be a whole number from 1 to 100'],
    ['query=ni&limit=ten', 'limit must be a whole number from 1 to 100'],
  ])('refuses "%s" with a 400 that says why', async (query, message) => {
    const response = await get(searchUrl(query));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_input', message });
  });

  it('is for the guild admins only, and needs the bot', async () => {
    expect((await h.app.inject({ method: 'GET', url: searchUrl('query=ni') })).statusCode).toBe(401);
    expect((await get(searchUrl('query=ni'), auth.nia)).statusCode).toBe(403);
    expect((await get(searchUrl('query=ni', GUILDS.orbit))).statusCode).toBe(403);
    expect((await get(searchUrl('query=ni', GUILDS.quiet))).statusCode).toBe(409);
  });
});
