import {
  jobIdFor,
  routePath,
  routes,
  TEMP_ROLE_DURATION_MESSAGE,
  TEMP_ROLE_MESSAGES,
  type TempRole,
  type TempRoleList,
} from '@spacecadet/contract';
import { guildHistory, tempRoles } from '@spacecadet/db/schema';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * Temporary roles from the dashboard against real Postgres, Redis (BullMQ) and the sandbox: a
 * grant is recorded and queued for the worker (which gives and takes back the role), refusals
 * name the field and store nothing, an early end queues the expiry, and each is in History.
 */
let h: Harness;
let ada: string;
const guildId = GUILDS.station;
const ROLES = SANDBOX_IDS.roles;
const listPath = routePath(routes.listTempRoles, { guildId });
const onePath = (id: number | string) => routePath(routes.deleteTempRole, { guildId, tempRoleId: id });

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

function send(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return h.app.inject({ method, url, headers: { authorization: ada }, ...(payload ? { payload } : {}) });
}

const rows = () => h.database.db.select().from(tempRoles).where(eq(tempRoles.guildId, guildId));
const jobState = (name: 'temp-roles.grant' | 'temp-roles.expire') =>
  h.app.services.queue.forShard(0).getJobState(jobIdFor(name, guildId));
const latestEntry = async () =>
  (
    await h.database.db
      .select()
      .from(guildHistory)
      .where(eq(guildHistory.guildId, guildId))
      .orderBy(desc(guildHistory.id))
      .limit(1)
  )[0];

beforeEach(async () => {
  await h.database.db.delete(tempRoles);
  for (const name of ['temp-roles.grant', 'temp-roles.expire'] as const) {
    await h.app.services.queue.forShard(0).remove(jobIdFor(name, guildId));
    await h.app.services.queue.forShard(0).remove(`${jobIdFor(name, guildId)}.followup`);
  }
});

describe('POST /temp-roles', () => {
  it('answers 201, records the role pending, queues its grant and records History', async () => {
    const before = Date.now();
    const response = await send('POST', listPath, {
      user_id: USERS.nia,
      role_id: ROLES.stationCrew,
      duration_s: 7200,
    });
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json<TempRole>();
    expect(answer).toMatchObject({
      id: expect.any(Number),
      user_id: USERS.nia,
      role_id: ROLES.stationCrew,
      granted_by: USERS.ada,
      source: 'api',
      state: 'pending',
    });
    const expires = new Date(answer.expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 7200_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7200_000);
    expect(await rows()).toMatchObject([{ id: answer.id, state: 'pending', userId: USERS.nia }]);
    expect(await jobState('temp-roles.grant')).toMatch(/waiting|active|delayed|prioritized/);
    expect(await latestEntry()).toMatchObject({
      action: 'temp_roles.grant',
      area: 'temp_roles',
      subject: `temp_roles:${answer.id}`,
      summary: `Gave <@&${ROLES.stationCrew}> to <@${USERS.nia}> for 2 hours`,
      actorId: USERS.ada,
      undoKind: null,
    });
    expect((await latestEntry())?.recordedAt).not.toBeNull();

    const list = await send('GET', listPath);
    expect(list.statusCode).toBe(200);
    expect(list.json<TempRoleList>().temp_roles).toEqual([answer]);

    // Giving it again moves the expiry of the one running, not a second row.
    const again = await send('POST', listPath, {
      user_id: USERS.nia,
      role_id: ROLES.stationCrew,
      duration_s: 60,
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<TempRole>().id).toBe(answer.id);
    expect(await rows()).toHaveLength(1);
  });

  const refusals: Array<[string, object, string]> = [
    ['a duration under a minute', { duration_s: 59 }, TEMP_ROLE_DURATION_MESSAGE],
    ['a duration over a year', { duration_s: 365 * 86400 + 1 }, TEMP_ROLE_DURATION_MESSAGE],
    ['a fractional duration', { duration_s: 90.5 }, TEMP_ROLE_DURATION_MESSAGE],
    ['a duration as text', { duration_s: '600' }, TEMP_ROLE_DURATION_MESSAGE],
    ['a user who is not a member', { user_id: USERS.rex }, 'user_id is not a member of this server'],
    ['a role of another server', { role_id: ROLES.orbitBot }, 'role_id is not a role of this server'],
    [
      '@everyone',
      { role_id: guildId },
      'role_id is @everyone, which every member already has; pick another role',
    ],
    [
      "an integration's role",
      { role_id: ROLES.stationBot },
      "role_id: @Space Cadet belongs to an integration (a bot's or a subscription's own role), and Discord lets no one give it; pick another role",
    ],
    [
      'a role above the bot',
      { role_id: ROLES.stationModerators },
      'role_id: @Moderators is above my highest role (Space Cadet); move my role above it in Server Settings → Roles, or pick another role',
    ],
    ['an unknown field', { note: 'x' }, 'note is not a field of this request'],
  ];
  for (const [what, change, message] of refusals) {
    it(`refuses ${what} with 400 and stores nothing`, async () => {
      const body = { user_id: USERS.nia, role_id: ROLES.stationCrew, duration_s: 600, ...change };
      const response = await send('POST', listPath, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(message);
      expect(await rows()).toEqual([]);
      expect(await jobState('temp-roles.grant')).toBe('unknown');
    });
  }
});

describe('DELETE /temp-roles/:id', () => {
  it('ends a running one early (204): due now, the expiry queued, History records it', async () => {
    const created = (
      await send('POST', listPath, { user_id: USERS.mo, role_id: ROLES.stationCrew, duration_s: 3600 })
    ).json<TempRole>();
    const response = await send('DELETE', onePath(created.id));
    expect(response.statusCode, response.body).toBe(204);
    const [row] = await h.database.db.select().from(tempRoles).where(eq(tempRoles.id, created.id));
    expect(row?.endReason).toBe('ended_early');
    expect(row?.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await jobState('temp-roles.expire')).toMatch(/waiting|active|delayed|prioritized/);
    expect(await latestEntry()).toMatchObject({
      action: 'temp_roles.end',
      subject: `temp_roles:${created.id}`,
      summary: `Ended the temporary role <@&${ROLES.stationCrew}> of <@${USERS.mo}> early and took it back`,
    });
    // No longer listed, and a second end finds nothing.
    expect((await send('GET', listPath)).json<TempRoleList>().temp_roles).toEqual([]);
    expect((await send('DELETE', onePath(created.id))).statusCode).toBe(404);
  });

  it("answers 404 for an unknown id and for another server's temporary role", async () => {
    const missing = await send('DELETE', onePath(999_999));
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ message: string }>().message).toBe(TEMP_ROLE_MESSAGES.notFound);
    const [other] = await h.database.db
      .insert(tempRoles)
      .values({
        guildId: GUILDS.orbit,
        userId: USERS.mo,
        roleId: ROLES.orbitBot,
        expiresAt: new Date(Date.now() + 3600_000),
        source: 'api',
        state: 'active',
      })
      .returning();
    expect((await send('DELETE', onePath(other?.id ?? 0))).statusCode).toBe(404);
    const [still] = await h.database.db
      .select()
      .from(tempRoles)
      .where(and(eq(tempRoles.id, other?.id ?? 0), eq(tempRoles.state, 'active')));
    expect(still?.endReason).toBeNull();
    expect((await send('DELETE', onePath('abc'))).statusCode).toBe(400);
  });
});

describe('a temporary role-menu option (expires_after_s)', () => {
  const menusPath = routePath(routes.listRoleMenus, { guildId });
  const menu = (style: 'buttons' | 'reactions', expires_after_s: unknown) => ({
    title: 'Trial roles',
    channel_id: SANDBOX_IDS.channels.roles,
    style,
    mode: 'normal',
    options: [{ role_id: ROLES.stationCrew, label: 'Crew for a day', emoji: '🚀', expires_after_s }],
  });

  it('is stored and answered with the option', async () => {
    const response = await send('POST', menusPath, menu('buttons', 86_400));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ options: unknown[] }>().options).toEqual([
      { role_id: ROLES.stationCrew, label: 'Crew for a day', emoji: '🚀', expires_after_s: 86_400 },
    ]);
  });

  it('is refused out of bounds, and on a reaction menu', async () => {
    const short = await send('POST', menusPath, menu('buttons', 30));
    expect(short.statusCode).toBe(400);
    expect(short.json<{ message: string }>().message).toBe(
      `Option 1: ${TEMP_ROLE_DURATION_MESSAGE.replace('duration_s', 'expires_after_s')}`,
    );
    const reactions = await send('POST', menusPath, menu('reactions', 3600));
    expect(reactions.statusCode).toBe(400);
    expect(reactions.json<{ message: string }>().message).toBe(
      'Option 1: a temporary role (expires_after_s) is for buttons and select menus, not reactions',
    );
  });
});
