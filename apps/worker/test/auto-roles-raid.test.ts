import { DEFAULT_WELCOME_SETTINGS } from '@spacecadet/contract';
import { saveWelcomeSettings } from '@spacecadet/db/queries/welcome';
import { type DiscordProxy, startDiscordProxy } from '@spacecadet/discord-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, memberRoles, STATION, startHarness, waitFor } from './helpers.ts';

/**
 * A raid: 30 members join at once while the sandbox enforces Discord's global limit (50 a second)
 * and its per-route buckets. The worker goes through the shared rate limiter (the Discord proxy),
 * as deployed: every member holds the auto-roles and Discord answered no request 429.
 */
describe('auto-roles in a raid of joins', () => {
  let harness: Harness;
  let proxy: DiscordProxy;
  let worker: RunningWorker;
  const call = <T>(method: string, path: string, body?: unknown) =>
    control(harness.sandbox).call<T>(method, path, body);

  let roles: string[];

  beforeAll(async () => {
    harness = await startHarness();
    // Made by the test itself, straight to the sandbox and so outside the proxy's count: before
    // the limits, so that every bot request under them is the worker's, through the proxy.
    const createRole = async (name: string) =>
      (await control(harness.sandbox).botRest<{ id: string }>('POST', `/guilds/${STATION}/roles`, { name }))
        .id;
    roles = [await createRole('Cadet'), await createRole('Pilot')];
    // Discord's limits from the start, so the proxy learns the buckets as Discord has them.
    await call('PUT', '/_sandbox/global-rate-limit', { per_second: 50 });
    await call('PUT', '/_sandbox/route-rate-limits', { enforce: true });
    proxy = await startDiscordProxy({ upstream: harness.sandbox.apiBase, port: 0 });
    worker = await startWorker(harness.config({ DISCORD_PROXY_URL: proxy.url }));
  });
  afterAll(async () => {
    await worker?.close();
    await proxy?.close();
    await harness?.close();
  });

  it('gives every member of 30 joins at once the auto-roles, with no 429', async () => {
    await saveWelcomeSettings(harness.database.db, STATION, {
      ...DEFAULT_WELCOME_SETTINGS,
      auto_roles: roles,
      bot_auto_roles: [],
      sticky_exclude_role_ids: [],
    });
    const raiders = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        return (await call<{ id: string }>('POST', '/_sandbox/users', { username: `raider_${i}` })).id;
      }),
    );
    const before = (await call<{ count: number }>('GET', '/_sandbox/invalid-requests')).count;
    await Promise.all(raiders.map((userId) => call('PUT', `/_sandbox/guilds/${STATION}/members/${userId}`)));
    for (const userId of raiders) {
      await waitFor(
        `raider ${userId} to hold the auto-roles`,
        () =>
          roles.every((roleId) => memberRoles(harness.sandbox, STATION, userId).includes(roleId)) ||
          undefined,
      );
    }
    const requests = await call<Array<{ method: string; path: string; status: number }>>(
      'GET',
      '/_sandbox/requests',
    );
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    expect((await call<{ count: number }>('GET', '/_sandbox/invalid-requests')).count).toBe(before);
  });
});
