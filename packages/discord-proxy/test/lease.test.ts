/**
 * Several proxies, one active (issue 40 §4): the lease in Redis names the one that sends to
 * Discord; a standby passes requests on to it, and takes over once it stops renewing.
 */

import { randomUUID } from 'node:crypto';
import { PROXY_NOT_SENT_HEADER } from '@spacecadet/contract';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS, type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { parsePrometheusSamples } from '@spacecadet/runtime/testing';
import { waitFor } from '@spacecadet/testing';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordProxy, startDiscordProxy } from '../src/index.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TTL_MS = 600;
const rolesPath = `/guilds/${SANDBOX_IDS.guilds.station}/roles`;

let sandbox: Sandbox | undefined;
const proxies: DiscordProxy[] = [];
const clients: Redis[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close().catch(() => {});
  for (const client of clients.splice(0)) client.disconnect();
  await sandbox?.close();
  sandbox = undefined;
});

/** A Redis client of one proxy (each its own, so one can lose Redis alone). */
function redisFor(prefix: string): Redis {
  const client = new Redis(REDIS_URL, {
    keyPrefix: prefix,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  client.on('error', () => {});
  clients.push(client);
  return client;
}

async function startPair(ttlMs = TTL_MS) {
  sandbox = await startSandbox({ port: 0, globalRateLimit: 50, routeRateLimits: true });
  const prefix = `proxy-lease-${randomUUID()}:`;
  const start = async () => {
    const redis = redisFor(prefix);
    await new Promise((resolve) => redis.once('ready', resolve));
    const proxy = await startDiscordProxy({
      upstream: sandbox?.apiBase ?? '',
      port: 0,
      metrics: { port: 0, host: '127.0.0.1', token: null },
      lease: { redis, ttlMs },
    });
    proxies.push(proxy);
    return { proxy, redis };
  };
  const first = await start();
  const second = await start();
  return { first, second, sandbox };
}

function createRole(proxy: DiscordProxy, name: string) {
  return fetch(`${proxy.url}/v10${rolesPath}`, {
    method: 'POST',
    headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
}

async function metric(proxy: DiscordProxy, name: string): Promise<number> {
  const text = await (await fetch(proxy.metricsUrl ?? '')).text();
  return parsePrometheusSamples(text)
    .filter((sample) => sample.name === name)
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** Role creates that reached the sandbox, and roles of that name it holds. */
const roleCreates = (box: Sandbox, name: string) => ({
  requests: box.world.requests.filter((r) => r.method === 'POST' && r.path.endsWith(rolesPath)).length,
  roles: box.world.guilds.get(SANDBOX_IDS.guilds.station)?.roles.filter((r) => r.name === name).length,
});

describe('a set of Discord proxies sharing one lease', () => {
  it('has one active proxy; a standby passes a request on to it, which Discord sees once', async () => {
    const { first, second, sandbox: box } = await startPair();
    expect(first.proxy.active()).toBe(true);
    expect(second.proxy.active()).toBe(false);
    expect(await metric(first.proxy, 'discord_proxy_active')).toBe(1);
    expect(await metric(second.proxy, 'discord_proxy_active')).toBe(0);

    const answer = await createRole(second.proxy, 'Passed On');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { name: string }).name).toBe('Passed On');
    expect(roleCreates(box, 'Passed On')).toEqual({ requests: 1, roles: 1 });
    expect(await metric(second.proxy, 'discord_proxy_passed_on_total')).toBe(1);
    // Counted (and rate limited) by the active proxy only.
    expect(await metric(first.proxy, 'discord_proxy_requests_total')).toBe(1);
    expect(await metric(second.proxy, 'discord_proxy_requests_total')).toBe(0);
  });

  it('a standby takes over once the active one stops renewing, which stops sending itself', async () => {
    const { first, second } = await startPair();
    expect(first.proxy.active()).toBe(true);
    // The active proxy loses Redis: it cannot renew, so it steps down a TTL after its last renewal.
    first.redis.disconnect();
    await waitFor('the standby to take over', () => second.proxy.active() || undefined);
    expect(first.proxy.active()).toBe(false);
    expect(await metric(second.proxy, 'discord_proxy_takeovers_total')).toBe(1);
    expect(await metric(second.proxy, 'discord_proxy_active')).toBe(1);
  });

  it('holds a request whose active proxy died, and sends it once it took over', async () => {
    // The default TTL (3 s): the request surely reaches the standby before it takes over.
    const { first, second, sandbox: box } = await startPair(3_000);
    // Dies without freeing the lease: Redis gone first, then its port.
    first.redis.disconnect();
    await first.proxy.close();
    const answer = await createRole(second.proxy, 'Held Over');
    expect(answer.status).toBe(200);
    expect(second.proxy.active()).toBe(true);
    expect(roleCreates(box, 'Held Over')).toEqual({ requests: 1, roles: 1 });
    expect(await metric(second.proxy, 'discord_proxy_passed_on_total')).toBe(1);
    expect(box.world.requests.filter((r) => r.status === 429)).toEqual([]);
  });

  it('a proxy cut off from Redis sends nothing, and says so, so its senders move on', async () => {
    const { first, second, sandbox: box } = await startPair();
    first.redis.disconnect();
    await waitFor('the standby to take over', () => second.proxy.active() || undefined);
    // It cannot tell which proxy is active: it waits for the lease, then gives the request back.
    const before = box.world.requests.length;
    const answer = await createRole(first.proxy, 'Not Sent');
    expect(answer.status).toBe(503);
    expect(answer.headers.get(PROXY_NOT_SENT_HEADER)).toBe('1');
    expect(box.world.requests.length).toBe(before);
  });
});
