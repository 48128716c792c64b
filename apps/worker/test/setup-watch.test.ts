import { guildChannelsCacheKey, guildRolesCacheKey, guildSetupCacheKey } from '@spacecadet/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, SANDBOX_IDS, STATION, startHarness, storedKey, waitFor } from './helpers.ts';

const ORBIT = SANDBOX_IDS.guilds.orbit;

/** The setup checklist turns live: the gateway's role and channel events drop the API's copies. */
describe('setup-watch drops the API copies a setup checklist reads', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let redis: Redis;
  const keys = (guildId: string) =>
    [guildSetupCacheKey(guildId), guildRolesCacheKey(guildId), guildChannelsCacheKey(guildId)].map((k) =>
      storedKey(harness, k),
    );
  const seed = async (guildId: string) => {
    for (const key of keys(guildId)) await redis.set(key, '[]', 'EX', 60);
  };
  const count = async (guildId: string) => redis.exists(...keys(guildId));

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    redis = new Redis(harness.redis.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await worker?.close();
    await harness.close();
  });

  it("a role moved in the server drops that server's copies, not another's", async () => {
    await seed(STATION);
    await seed(ORBIT);
    const response = await fetch(
      `${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${SANDBOX_IDS.roles.stationBot}`,
      {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ position: 9 }),
      },
    );
    expect(response.status).toBe(200);
    await waitFor('the station copies to be dropped', async () => (await count(STATION)) === 0, 5000);
    expect(await count(ORBIT)).toBe(3);
  });
});
