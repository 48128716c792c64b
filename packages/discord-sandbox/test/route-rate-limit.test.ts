import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { RATE_LIMIT } from '../src/rest/http.ts';
import { bot, control } from './helpers.ts';

const { guilds } = SANDBOX_IDS;
const guildPath = `/guilds/${guilds.station}`;

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

/** Sends `count` bot requests one after another; their statuses and the last answer. */
async function burst(count: number, path = guildPath) {
  const statuses: number[] = [];
  let last: Awaited<ReturnType<typeof bot>> | undefined;
  for (let i = 0; i < count; i++) {
    last = await bot(sandbox, 'GET', path);
    statuses.push(last.status);
  }
  if (!last) throw new Error('no request sent');
  return { statuses, last };
}

describe("Discord's per-route buckets", () => {
  it('are reported but not enforced unless asked for: remaining stays at 1 or more', async () => {
    sandbox = await startSandbox({ port: 0 });
    expect((await control(sandbox, 'GET', '/route-rate-limits')).body).toEqual({
      enforce: false,
      channel_messages: true,
    });
    const { statuses, last } = await burst(RATE_LIMIT + 5);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it("refuse a request over its bucket with Discord's user-scoped 429, and count it as invalid", async () => {
    sandbox = await startSandbox({ port: 0 });
    expect((await control(sandbox, 'PUT', '/route-rate-limits', { enforce: true })).body).toEqual({
      enforce: true,
      channel_messages: true,
    });
    const { statuses } = await burst(RATE_LIMIT);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const refused = await bot(sandbox, 'GET', guildPath);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
    expect(refused.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{16}$/);
    expect(Number(refused.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-global')).toBeNull();
    const body = refused.body as { message: string; retry_after: number; global: boolean };
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(1);

    // Another bucket (another route, or the same route of another guild) is not spent.
    expect((await bot(sandbox, 'GET', `${guildPath}/roles`)).status).toBe(200);
    expect((await bot(sandbox, 'GET', `/guilds/${guilds.orbit}`)).status).toBe(200);
    // Requests without the bot token are not the bot's bucket.
    const anonymous = await fetch(`${sandbox.apiBase}/v10${guildPath}`);
    expect(anonymous.status).toBe(401);

    // The 429 counts as invalid; the anonymous 401 is not the bot token's.
    expect((await control(sandbox, 'GET', '/invalid-requests')).body).toEqual({
      count: 1,
      window_seconds: 600,
    });
  });

  it('counts every 401, 403 and 429 the bot token gets', async () => {
    sandbox = await startSandbox({ port: 0 });
    await control(sandbox, 'POST', '/faults', { path: guildPath, status: 403, count: 2 });
    await control(sandbox, 'POST', '/faults', { path: `${guildPath}/roles`, status: 429, count: 1 });
    expect((await bot(sandbox, 'GET', guildPath)).status).toBe(403);
    expect((await bot(sandbox, 'GET', guildPath)).status).toBe(403);
    expect((await bot(sandbox, 'GET', `${guildPath}/roles`)).status).toBe(429);
    expect((await bot(sandbox, 'GET', guildPath)).status).toBe(200);
    expect((await control(sandbox, 'GET', '/invalid-requests')).body).toMatchObject({ count: 3 });
    await control(sandbox, 'POST', '/reset');
    expect((await control(sandbox, 'GET', '/invalid-requests')).body).toMatchObject({ count: 0 });
  });

  it('start enforced when configured; a reset restores the configured setting', async () => {
    sandbox = await startSandbox({ port: 0, routeRateLimits: true });
    expect((await control(sandbox, 'GET', '/route-rate-limits')).body).toEqual({
      enforce: true,
      channel_messages: true,
    });
    await control(sandbox, 'PUT', '/route-rate-limits', { enforce: false });
    expect((await burst(RATE_LIMIT + 1)).statuses.every((status) => status === 200)).toBe(true);
    await control(sandbox, 'POST', '/reset');
    expect((await control(sandbox, 'GET', '/route-rate-limits')).body).toEqual({
      enforce: true,
      channel_messages: true,
    });
    expect((await burst(RATE_LIMIT + 1)).statuses.at(-1)).toBe(429);
  });

  it('rejects a switch that is not true or false', async () => {
    sandbox = await startSandbox({ port: 0 });
    for (const enforce of [1, 'true', null, undefined]) {
      expect((await control(sandbox, 'PUT', '/route-rate-limits', { enforce })).status).toBe(400);
    }
    expect((await control(sandbox, 'GET', '/route-rate-limits')).body).toEqual({
      enforce: false,
      channel_messages: true,
    });
  });
});
