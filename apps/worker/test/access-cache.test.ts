import { apiCacheChannel, guildMembershipCacheKey, userGuildsCacheKey } from '@spacecadet/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, SANDBOX_IDS, STATION, startHarness, storedKey, waitFor } from './helpers.ts';

const { ada, mo, nia, rex } = SANDBOX_IDS.users;
const { stationManagers, stationCrew } = SANDBOX_IDS.roles;
const ORBIT = SANDBOX_IDS.guilds.orbit;

describe("the API's cached guild lists follow Discord's member and role changes", () => {
  let harness: Harness;
  let worker: RunningWorker;
  let redis: Redis;
  let listener: Redis;
  /** What the worker announced on the API cache channel (every API replica drops these copies). */
  const announced: string[] = [];

  /** The key the API reads, as stored (this test's client has no keyPrefix). */
  const key = (userId: string) => storedKey(harness, userGuildsCacheKey(userId));
  /** What the API would have cached for a user who manages these guilds. */
  const seed = (userId: string, guildIds: string[]) =>
    redis.set(
      key(userId),
      JSON.stringify(guildIds.map((id) => ({ id, name: `guild ${id}`, icon: null, owner: false }))),
      'EX',
      60,
    );
  const gone = (userId: string) =>
    waitFor(
      `the cached guild list of ${userId} to be dropped`,
      async () => (await redis.exists(key(userId))) === 0,
      5000,
    );
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${harness.sandbox.url}/_sandbox${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    redis = new Redis(harness.redis.url);
    listener = new Redis(harness.redis.url);
    await listener.subscribe(apiCacheChannel(harness.redis.prefix));
    listener.on('message', (_channel: string, message: string) => announced.push(message));
  });
  afterAll(async () => {
    redis?.disconnect();
    listener?.disconnect();
    await worker?.close();
    await harness.close();
  });

  it('drops a manager’s list as soon as they lose the role granting Manage Server', async () => {
    await seed(mo, [STATION]);
    await seed(rex, [ORBIT]);
    await admin('DELETE', `/guilds/${STATION}/members/${mo}/roles/${stationManagers}`);
    await gone(mo);
    expect(await redis.exists(key(rex))).toBe(1);
    await waitFor('the drop announced to the API replicas', async () =>
      announced.includes(`user-guilds:${mo}`),
    );
  });

  it('drops the lists naming a guild whose role loses Manage Server, and only those', async () => {
    await admin('PUT', `/guilds/${STATION}/members/${mo}/roles/${stationManagers}`);
    await waitFor(
      'mo back in Managers (his list dropped again)',
      async () => (await redis.exists(key(mo))) === 0,
    );
    await seed(mo, [STATION]);
    await seed(rex, [ORBIT]);
    announced.length = 0;
    await admin('PATCH', `/guilds/${STATION}/roles/${stationManagers}`, { permissions: '0' });
    await gone(mo);
    expect(await redis.exists(key(rex))).toBe(1);
    await waitFor('the drop announced to the API replicas', async () =>
      announced.includes(`guild-lists:${STATION}`),
    );
  });

  it('drops the lists naming a guild when a role with Manage Server is deleted', async () => {
    // Crew gets Manage Server (nia holds it), then an admin deletes the role.
    await admin('PATCH', `/guilds/${STATION}/roles/${stationCrew}`, { permissions: '32' });
    await waitFor('the worker to see Crew with Manage Server', () =>
      worker.client.guilds.cache.get(STATION)?.roles.cache.get(stationCrew)?.permissions.has('ManageGuild'),
    );
    await seed(nia, [STATION]);
    await seed(rex, [ORBIT]);
    await admin('DELETE', `/guilds/${STATION}/roles/${stationCrew}`);
    await gone(nia);
    expect(await redis.exists(key(rex))).toBe(1);
  });

  it('drops the list of a member who leaves', async () => {
    await seed(nia, [STATION]);
    await admin('DELETE', `/guilds/${STATION}/members/${nia}`);
    await gone(nia);
  });

  it('forgets the membership the members-only leaderboard remembered when the member leaves, and when they join', async () => {
    const membership = storedKey(harness, guildMembershipCacheKey(STATION, mo));
    const otherGuild = storedKey(harness, guildMembershipCacheKey(ORBIT, mo));
    // What the API remembered after mo opened the leaderboards (isMemberRecently).
    await redis.set(membership, 'true', 'EX', 60);
    await redis.set(otherGuild, 'true', 'EX', 60);
    await admin('DELETE', `/guilds/${STATION}/members/${mo}`);
    await waitFor(
      'the leaver’s membership to be forgotten',
      async () => (await redis.exists(membership)) === 0,
    );
    expect(await redis.exists(otherGuild)).toBe(1);

    // Read again while mo was out: the API remembered "not a member".
    await redis.set(membership, 'false', 'EX', 60);
    await admin('PUT', `/guilds/${STATION}/members/${mo}`);
    await waitFor(
      'the joiner’s membership to be forgotten',
      async () => (await redis.exists(membership)) === 0,
    );
  });

  it('drops the old and the new owner’s lists when the server changes hands', async () => {
    await seed(ada, [STATION]);
    await seed(mo, [STATION]);
    await seed(rex, [ORBIT]);
    await admin('PATCH', `/guilds/${STATION}`, { owner_id: mo });
    await gone(ada);
    await gone(mo);
    expect(await redis.exists(key(rex))).toBe(1);
  });
});
