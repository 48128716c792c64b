import { productionTestEnv } from '@spacecadet/testing';
import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../src/env.ts';

describe('loadWorkerConfig', () => {
  it('reads REDIS_CLUSTER_NODES as host:port seeds, and refuses an entry without a port naming it', () => {
    const base = { DISCORD_API_BASE: 'http://127.0.0.1:4100/api/' };
    expect(loadWorkerConfig(base).redisClusterNodes).toBeNull();
    expect(
      loadWorkerConfig({ ...base, REDIS_CLUSTER_NODES: ' redis-a:7000, 10.0.0.2:7001,[::1]:7002' })
        .redisClusterNodes,
    ).toEqual([
      { host: 'redis-a', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(() => loadWorkerConfig({ ...base, REDIS_CLUSTER_NODES: 'redis-a:7000,redis-b' })).toThrow(
      /REDIS_CLUSTER_NODES: "redis-b" is not host:port/,
    );
    expect(() => loadWorkerConfig({ ...base, REDIS_CLUSTER_NODES: 'redis-a:70000' })).toThrow(
      /REDIS_CLUSTER_NODES/,
    );
  });

  it('uses the documented defaults with a sandbox API and no token', () => {
    const config = loadWorkerConfig({ DISCORD_API_BASE: 'http://127.0.0.1:4100/api/' });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/spacecadet',
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'spacecadet',
      discordApiBase: 'http://127.0.0.1:4100/api',
      discordCdnBase: 'http://127.0.0.1:4100',
      discordBotToken: 'sandbox-bot-token',
      discordClientId: null,
      shards: null,
      logLevel: 'info',
    });
  });

  it('takes a good production env, and refuses the sandbox token and a local URL naming each', () => {
    const good = productionTestEnv();
    expect(loadWorkerConfig(good).discordBotToken).toBe(good.DISCORD_BOT_TOKEN);
    expect(() =>
      loadWorkerConfig({
        ...good,
        DISCORD_BOT_TOKEN: 'sandbox-bot-token',
        DASHBOARD_URL: 'https://localhost',
      }),
    ).toThrow(
      /DASHBOARD_URL: points at this machine[\s\S]*DISCORD_BOT_TOKEN: is the sandbox's published value/,
    );
  });

  it("turns Linked Roles pushes on with a client secret (the sandbox's by default), never the sandbox's in production", () => {
    const sandbox = loadWorkerConfig({ DISCORD_API_BASE: 'http://127.0.0.1:4100/api/' });
    expect(sandbox.linkedRoles).toEqual({
      sessionSecret: expect.any(String),
      clientSecret: 'sandbox-secret',
    });
    expect(loadWorkerConfig({ DISCORD_BOT_TOKEN: 'abc' }).linkedRoles).toBeNull();
    const good = productionTestEnv();
    expect(loadWorkerConfig({ ...good, DISCORD_CLIENT_SECRET: 'real-secret' }).linkedRoles).toEqual({
      sessionSecret: good.SESSION_SECRET,
      clientSecret: 'real-secret',
    });
    expect(() => loadWorkerConfig({ ...good, DISCORD_CLIENT_SECRET: 'sandbox-secret' })).toThrow(
      /DISCORD_CLIENT_SECRET: is the sandbox's published value/,
    );
  });

  it('requires DISCORD_BOT_TOKEN against real Discord and names it', () => {
    expect(() => loadWorkerConfig({})).toThrow(/DISCORD_BOT_TOKEN/);
    expect(loadWorkerConfig({ DISCORD_BOT_TOKEN: 'abc' }).discordApiBase).toBe('https://discord.com/api');
    expect(loadWorkerConfig({ DISCORD_BOT_TOKEN: 'abc' }).discordCdnBase).toBe('https://cdn.discordapp.com');
    expect(
      loadWorkerConfig({ DISCORD_BOT_TOKEN: 'abc', DISCORD_CDN_BASE: 'https://cdn.example/' }).discordCdnBase,
    ).toBe('https://cdn.example');
  });

  it.each([
    [{ REDIS_URL: 'http://nope' }, /REDIS_URL/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SHARD_IDS: '0,x', SHARD_COUNT: '2' }, /SHARD_IDS/],
    [{ SHARD_IDS: '0' }, /SHARD_COUNT: required/],
    [{ SHARD_IDS: '2', SHARD_COUNT: '2' }, /SHARD_IDS: 2 not below SHARD_COUNT 2/],
    [{ SHARD_COUNT: '0' }, /SHARD_COUNT/],
    [{ DISCORD_CLIENT_ID: 'abc' }, /DISCORD_CLIENT_ID/],
    [{ WORKER_CONCURRENCY: '-1' }, /WORKER_CONCURRENCY/],
    [{ SHARD_IDS: 'automatic', SHARD_COUNT: '2' }, /SHARD_IDS: must be auto or a comma-separated list/],
    [{ SHARD_IDS: 'auto' }, /SHARD_COUNT: required/],
    [{ SHARDS_PER_PROCESS: '0' }, /SHARDS_PER_PROCESS/],
    [
      { IDENTIFY_INTERVAL_MS: '100' },
      /IDENTIFY_INTERVAL_MS: below Discord's 5000 only against a local sandbox/,
    ],
  ])('rejects %o naming the variable', (env, message) => {
    expect(() => loadWorkerConfig({ DISCORD_BOT_TOKEN: 't', ...env })).toThrow(message);
  });

  it('reports the cross-variable problems together', () => {
    expect(() => loadWorkerConfig({ SHARD_IDS: '0' })).toThrow(/DISCORD_BOT_TOKEN[\s\S]*SHARD_COUNT/);
  });

  it('reads explicit shards', () => {
    const env = { DISCORD_BOT_TOKEN: 't' };
    expect(loadWorkerConfig({ ...env, SHARD_IDS: '1, 0', SHARD_COUNT: '2' }).shards).toEqual({
      ids: [1, 0],
      count: 2,
    });
    expect(loadWorkerConfig({ ...env, SHARD_COUNT: '3' }).shards).toEqual({ ids: [0, 1, 2], count: 3 });
  });

  it('reads DISCORD_PROXY_URL, the shared Discord rate limiter (unset: null)', () => {
    const SANDBOX_API = { DISCORD_API_BASE: 'http://127.0.0.1:4100/api' };
    expect(loadWorkerConfig(SANDBOX_API).discordProxyUrls).toBeNull();
    expect(loadWorkerConfig({ ...SANDBOX_API, DISCORD_PROXY_URL: ' ' }).discordProxyUrls).toBeNull();
    expect(
      loadWorkerConfig({ ...SANDBOX_API, DISCORD_PROXY_URL: 'http://discord-proxy:4200/api/' })
        .discordProxyUrls,
    ).toEqual(['http://discord-proxy:4200/api']);
    // Every proxy of a set, comma-separated; each one checked.
    expect(
      loadWorkerConfig({
        ...SANDBOX_API,
        DISCORD_PROXY_URL: 'http://discord-proxy:4200/api, http://discord-proxy-2:4200/api/',
      }).discordProxyUrls,
    ).toEqual(['http://discord-proxy:4200/api', 'http://discord-proxy-2:4200/api']);
    expect(() =>
      loadWorkerConfig({ ...SANDBOX_API, DISCORD_PROXY_URL: 'http://discord-proxy:4200/api,proxy-2' }),
    ).toThrow(/DISCORD_PROXY_URL: must be an http\(s\) URL[^\n]*\(got "proxy-2"\)/);
    expect(() =>
      loadWorkerConfig({
        ...SANDBOX_API,
        DISCORD_PROXY_URL: 'http://discord-proxy:4200/api,http://discord-proxy:4200/api/',
      }),
    ).toThrow(/DISCORD_PROXY_URL: lists the same proxy twice/);
    expect(() => loadWorkerConfig({ ...SANDBOX_API, DISCORD_PROXY_URL: 'discord-proxy' })).toThrow(
      /DISCORD_PROXY_URL/,
    ); // Without its /api path every call would be a bare 404 at /users/@me: refused at start instead.
    expect(() =>
      loadWorkerConfig({ ...SANDBOX_API, DISCORD_PROXY_URL: 'http://discord-proxy:4200' }),
    ).toThrow(/DISCORD_PROXY_URL: must end with \/api[^\n]*http:\/\/127\.0\.0\.1:4200\/api/);
    expect(() => loadWorkerConfig({ DISCORD_API_BASE: 'http://127.0.0.1:4100' })).toThrow(
      /DISCORD_API_BASE: must end with \/api/,
    );
  });

  it("reads SHARD_IDS=auto with SHARDS_PER_PROCESS, and the IDENTIFY interval (Discord's 5 s unless a sandbox)", () => {
    const env = { DISCORD_BOT_TOKEN: 't' };
    const auto = loadWorkerConfig({ ...env, SHARD_IDS: 'auto', SHARD_COUNT: '4', SHARDS_PER_PROCESS: '2' });
    expect(auto).toMatchObject({
      shards: { ids: 'auto', count: 4 },
      shardsPerProcess: 2,
      identifyIntervalMs: 5000,
    });
    expect(loadWorkerConfig(env)).toMatchObject({ shardsPerProcess: 1, identifyIntervalMs: 5000 });
    const sandbox = { DISCORD_API_BASE: 'http://127.0.0.1:4100/api', IDENTIFY_INTERVAL_MS: '250' };
    expect(loadWorkerConfig(sandbox).identifyIntervalMs).toBe(250);
  });
});
