import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { bot, clickWithoutBot, control } from './helpers.ts';

const { guilds, app } = SANDBOX_IDS;
const guildPath = `/guilds/${guilds.station}`;

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.apiBase}/v10${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

describe("Discord's global rate limit", () => {
  it('is off unless asked for', async () => {
    sandbox = await startSandbox({ port: 0 });
    expect((await control(sandbox, 'GET', '/global-rate-limit')).body).toEqual({ per_second: null });
    const statuses = await Promise.all(
      Array.from({ length: 80 }, async () => (await bot(sandbox, 'GET', guildPath)).status),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it('refuses bot requests over the limit with a global 429; interaction answers are exempt', async () => {
    sandbox = await startSandbox({ port: 0, interactionTimeoutMs: 5000 });
    const { record, pending } = await clickWithoutBot(sandbox);
    expect((await control(sandbox, 'PUT', '/global-rate-limit', { per_second: 3 })).body).toEqual({
      per_second: 3,
    });
    const opened = Date.now();
    for (let i = 0; i < 3; i++) expect((await bot(sandbox, 'GET', guildPath)).status).toBe(200);

    const refused = await bot(sandbox, 'GET', guildPath);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-global')).toBe('true');
    expect(refused.headers.get('x-ratelimit-scope')).toBe('global');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-bucket')).toBeNull();
    const body = refused.body as { message: string; global: boolean; retry_after: number };
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: true });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(1);
    // Any route: the limit is the token's, not a route's.
    expect((await bot(sandbox, 'POST', `${guildPath}/roles`, { name: 'x' })).status).toBe(429);

    // While the bot is limited, the member is still answered: defer, edit, follow up.
    const answer = `/interactions/${record.id}/${record.token}/callback`;
    expect((await send('POST', answer, { type: 5, data: { flags: 64 } })).status).toBe(204);
    expect((await pending).body).toMatchObject({ responded: true, response: { type: 5 } });
    const edited = await send('PATCH', `/webhooks/${app}/${record.token}/messages/@original`, {
      content: 'done',
    });
    expect(edited.status).toBe(200);
    const followUp = await send('POST', `/webhooks/${app}/${record.token}?wait=true`, {
      content: 'and more',
      flags: 64,
    });
    expect(followUp.status).toBe(200);
    expect(sandbox.state().interactions[0]?.original?.content).toBe('done');
    // Requests without the bot token are not the bot's to count.
    expect((await send('GET', guildPath)).status).toBe(401);
    expect((await bot(sandbox, 'GET', guildPath)).status).toBe(429);

    // Once the window closes the bot may call again.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, opened + 1050 - Date.now())));
    expect((await bot(sandbox, 'GET', guildPath)).status).toBe(200);
    const log = (await control(sandbox, 'GET', '/requests')).body as Array<{ path: string; status: number }>;
    expect(log.filter((request) => request.status === 429)).toHaveLength(3);
  });

  it('starts on when configured; a reset restores the configured limit', async () => {
    sandbox = await startSandbox({ port: 0, globalRateLimit: 2 });
    expect((await control(sandbox, 'GET', '/global-rate-limit')).body).toEqual({ per_second: 2 });
    await control(sandbox, 'PUT', '/global-rate-limit', { per_second: null });
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => (await bot(sandbox, 'GET', guildPath)).status),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    await control(sandbox, 'POST', '/reset');
    expect((await control(sandbox, 'GET', '/global-rate-limit')).body).toEqual({ per_second: 2 });
    const limited = [];
    for (let i = 0; i < 3; i++) limited.push((await bot(sandbox, 'GET', guildPath)).status);
    expect(limited).toEqual([200, 200, 429]);
  });

  it('rejects a limit that is not a whole number of at least 1', async () => {
    sandbox = await startSandbox({ port: 0 });
    for (const per_second of [0, 2.5, '50', undefined]) {
      expect((await control(sandbox, 'PUT', '/global-rate-limit', { per_second })).status).toBe(400);
    }
    expect((await control(sandbox, 'GET', '/global-rate-limit')).body).toEqual({ per_second: null });
  });
});
