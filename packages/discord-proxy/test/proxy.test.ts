import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS, type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { parsePrometheusSamples } from '@spacecadet/runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProxyConfig } from '../src/env.ts';
import { BUDGET_HEADER, type DiscordProxy, startDiscordProxy } from '../src/index.ts';

const { guilds } = SANDBOX_IDS;
const guildPath = `/guilds/${guilds.station}`;

let sandbox: Sandbox | undefined;
let proxy: DiscordProxy | undefined;
let relay: Server | undefined;
afterEach(async () => {
  await proxy?.close();
  if (relay) {
    const closed = once(relay, 'close');
    relay.close();
    relay.closeAllConnections();
    await closed;
    relay = undefined;
  }
  await sandbox?.close();
  proxy = undefined;
  sandbox = undefined;
});

async function start(options: { invalidRequestBudget?: number } = {}) {
  sandbox = await startSandbox({ port: 0, globalRateLimit: 50, routeRateLimits: true });
  proxy = await startDiscordProxy({
    upstream: sandbox.apiBase,
    port: 0,
    metrics: { port: 0, host: '127.0.0.1', token: null },
    ...options,
  });
  return { sandbox, proxy };
}

async function viaProxy(
  method: string,
  path: string,
  body?: unknown,
  auth: string | null = `Bot ${SANDBOX_BOT_TOKEN}`,
) {
  if (!proxy) throw new Error('no proxy');
  const res = await fetch(`${proxy.url}/v10${path}`, {
    method,
    headers: {
      ...(auth === null ? {} : { authorization: auth }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

async function sandboxRequests(): Promise<Array<{ method: string; path: string; status: number }>> {
  if (!sandbox) throw new Error('no sandbox');
  return (await fetch(`${sandbox.url}/_sandbox/requests`)).json() as never;
}

async function scrape() {
  if (!proxy?.metricsUrl) throw new Error('no metrics');
  const res = await fetch(proxy.metricsUrl);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, samples: parsePrometheusSamples(text) };
}

describe('the Discord proxy', () => {
  it('holds the global limit and the route buckets for every sender: no 429 reaches Discord', async () => {
    await start();
    // 130 requests at once on one bucket (50 a second each way): the proxy queues them.
    const answers = await Promise.all(Array.from({ length: 130 }, () => viaProxy('GET', guildPath)));
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(answers[0]?.body).toMatchObject({ id: guilds.station });
    // X-RateLimit headers stay in the proxy: senders hold no rate-limit state.
    expect(answers[0]?.headers.get('x-ratelimit-remaining')).toBeNull();

    const log = await sandboxRequests();
    expect(log.filter((request) => request.path === guildPath)).toHaveLength(130);
    expect(log.filter((request) => request.status === 429)).toEqual([]);

    const { samples } = await scrape();
    const requests = samples.filter((s) => s.name === 'discord_proxy_requests_total');
    expect(requests).toContainEqual({
      name: 'discord_proxy_requests_total',
      labels: { route: `/guilds/:id`, method: 'GET', status: '200' },
      value: 130,
    });
    const waits = samples.find(
      (s) => s.name === 'discord_proxy_wait_seconds_count' && s.labels.route === '/guilds/:id',
    );
    expect(waits?.value).toBe(130);
    // Over 100 requests on one bucket wait at least one window of a second.
    const slow = samples.find(
      (s) =>
        s.name === 'discord_proxy_wait_seconds_bucket' &&
        s.labels.route === '/guilds/:id' &&
        s.labels.le === '0.5',
    );
    expect(slow?.value).toBeLessThan(130);
  });

  it('sends a storm across many buckets at the full global limit with no 429 from Discord', async () => {
    // Between the proxy and Discord, a network whose latency drops: 150 ms on the way in for the
    // first 100 requests, then none. A limiter that counts its seconds from sending starts one
    // 150 ms before Discord's (which starts at the first arrival) ends, and the first requests
    // of that second, now fast, land in Discord's full one (429).
    sandbox = await startSandbox({ port: 0, globalRateLimit: 50 });
    const upstream = sandbox.apiBase;
    let relayed = 0;
    relay = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        setTimeout(
          async () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(req.headers)) {
              if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
                headers[name] = value;
            }
            const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
            const answer = await fetch(`${upstream}${(req.url ?? '/').replace(/^\/api/, '')}`, {
              method: req.method ?? 'GET',
              headers,
              ...(body ? { body } : {}),
            });
            const text = await answer.text();
            const out: Record<string, string> = {};
            answer.headers.forEach((value, name) => {
              if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
                out[name] = value;
            });
            res.writeHead(answer.status, out);
            res.end(text);
          },
          relayed++ < 100 ? 150 : 0,
        );
      });
    });
    relay.listen(0, '127.0.0.1');
    await once(relay, 'listening');
    const relayPort = (relay.address() as AddressInfo).port;
    proxy = await startDiscordProxy({
      upstream: `http://127.0.0.1:${relayPort}/api`,
      port: 0,
      metrics: { port: 0, host: '127.0.0.1', token: null },
    });
    // Route buckets are not enforced: the global limit (50 a second, counted from arrival) binds.
    const { channels } = SANDBOX_IDS;
    const paths = [
      guildPath,
      `${guildPath}/roles`,
      `${guildPath}/channels`,
      ...[
        channels.general,
        channels.roles,
        channels.levelUps,
        channels.announcements,
        channels.stationCategory,
        channels.stationLounge,
        channels.stationBriefing,
        channels.stationAfk,
      ].map((id) => `/channels/${id}`),
    ];
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => viaProxy('GET', paths[i % paths.length] ?? guildPath)),
    );
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);

    const log = await sandboxRequests();
    expect(log.filter((request) => request.status === 429)).toEqual([]);
    const { samples } = await scrape();
    expect(samples.filter((s) => s.name === 'discord_proxy_upstream_429_total' && s.value > 0)).toEqual([]);
  });

  it("forwards bodies, the caller's Authorization and Discord's errors as they are", async () => {
    await start();
    const created = await viaProxy('POST', `${guildPath}/roles`, { name: 'via proxy' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'via proxy' });
    const anonymous = await viaProxy('GET', guildPath, undefined, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ message: '401: Unauthorized' });
    const missing = await viaProxy('GET', '/guilds/399999999999999999');
    expect(missing.status).toBe(404);
    expect((await fetch(`${proxy?.url.replace(/\/api$/, '')}/healthz`)).status).toBe(200);
  });

  it('never puts an id or a webhook token in a metric label', async () => {
    await start();
    const token = 'aW50ZXJhY3Rpb246c2VjcmV0LXRva2VuLXRoYXQtbXVzdC1ub3QtbGVhaw';
    await viaProxy('GET', `/webhooks/${SANDBOX_IDS.app}/${token}/messages/@original`, undefined, null);
    await viaProxy('GET', '/invites/abcdefgh');
    const { text } = await scrape();
    expect(text).not.toContain(token);
    expect(text).not.toContain(SANDBOX_IDS.app);
    expect(text).not.toContain('abcdefgh');
    expect(text).toContain('route="/webhooks/:id/:token/messages/@original"');
    expect(text).toContain('route="/invites/:param"');
  });

  it('stops forwarding once the invalid-request budget is spent, and says so', async () => {
    const { sandbox } = await start({ invalidRequestBudget: 3 });
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: guildPath, status: 403, count: 3 }),
    });
    for (let i = 0; i < 3; i++) expect((await viaProxy('GET', guildPath)).status).toBe(403);
    expect(proxy?.invalidRequests()).toBe(3);

    const refused = await viaProxy('GET', `${guildPath}/roles`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get(BUDGET_HEADER)).toBe('invalid-request-budget');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(refused.body).toMatchObject({ global: true });
    expect((refused.body as { retry_after: number }).retry_after).toBeGreaterThan(500);
    // The refused request never reached Discord.
    const log = await sandboxRequests();
    expect(log.filter((request) => request.path === `${guildPath}/roles`)).toEqual([]);
    const { samples } = await scrape();
    expect(samples.find((s) => s.name === 'discord_proxy_invalid_requests')?.value).toBe(3);
    expect(samples.find((s) => s.name === 'discord_proxy_budget_refusals_total')?.value).toBe(1);
  });

  it('counts the 429s Discord answers, by route and scope', async () => {
    const { sandbox } = await start();
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: `${guildPath}/channels`, status: 429, count: 1, retry_after: 0.05 }),
    });
    // rest waits out the 429 and tries again: the sender sees only the answer.
    expect((await viaProxy('GET', `${guildPath}/channels`)).status).toBe(200);
    const { samples } = await scrape();
    expect(samples).toContainEqual({
      name: 'discord_proxy_upstream_429_total',
      labels: { route: '/guilds/:id/channels', scope: 'user' },
      value: 1,
    });
  });
});

describe('the proxy environment', () => {
  it('has defaults for everything and names a bad variable', () => {
    expect(loadProxyConfig({})).toMatchObject({
      upstream: 'https://discord.com/api',
      host: '127.0.0.1',
      port: 4200,
      invalidRequestBudget: 9000,
      globalRequestsPerSecond: 50,
      metrics: { port: null },
    });
    expect(() => loadProxyConfig({ DISCORD_INVALID_REQUEST_BUDGET: '20000' })).toThrow(
      /DISCORD_INVALID_REQUEST_BUDGET/,
    );
    expect(() => loadProxyConfig({ DISCORD_PROXY_PORT: 'x' })).toThrow(/DISCORD_PROXY_PORT/);
  });
});
