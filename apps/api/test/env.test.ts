import { EnvError } from '@spacecadet/contract';
import { DEFAULT_BOT_PERMISSIONS } from '@spacecadet/core';
import { productionTestEnv } from '@spacecadet/testing';
import { describe, expect, it } from 'vitest';
import { loadApiConfig } from '../src/env.ts';

const SANDBOX = { DISCORD_API_BASE: 'http://127.0.0.1:4100/api' };

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadApiConfig(env);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadApiConfig', () => {
  it('reads REDIS_CLUSTER_NODES, and refuses a bad entry naming the variable', () => {
    expect(loadApiConfig(SANDBOX).redisClusterNodes).toBeNull();
    expect(loadApiConfig({ ...SANDBOX, REDIS_CLUSTER_NODES: 'a:7000,b:7001' }).redisClusterNodes).toEqual([
      { host: 'a', port: 7000 },
      { host: 'b', port: 7001 },
    ]);
    expect(() => loadApiConfig({ ...SANDBOX, REDIS_CLUSTER_NODES: 'a:7000,:7001' })).toThrow(
      /REDIS_CLUSTER_NODES: ":7001" is not host:port/,
    );
  });

  it('has working defaults against a local sandbox, with a warning about the dev secret', () => {
    const config = loadApiConfig(SANDBOX);
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4000,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/spacecadet',
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'spacecadet',
      publicApiUrl: 'http://127.0.0.1:4000',
      dashboardUrl: 'http://127.0.0.1:5173',
      ownerUserId: null,
      // Unset: each invite asks for what the server's features need.
      botPermissions: null,
      discord: {
        apiBase: 'http://127.0.0.1:4100/api',
        oauthBase: 'https://discord.com',
        clientId: '100000000000000001',
        clientSecret: 'sandbox-secret',
        botToken: 'sandbox-bot-token',
      },
    });
    expect(config.warnings.join()).toMatch(/SESSION_SECRET/);
  });

  it('includes the permissions the bot needs', () => {
    const permissions = BigInt(DEFAULT_BOT_PERMISSIONS);
    for (const bit of [1n << 28n, 1n << 11n, 1n << 14n, 1n << 10n, 1n << 16n]) {
      expect(permissions & bit).toBe(bit);
    }
  });

  it('names every bad variable', () => {
    const problems = problemsOf({
      ...SANDBOX,
      API_PORT: 'eighty',
      REDIS_URL: 'http://x',
      OWNER_USER_ID: 'me',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['API_PORT', 'OWNER_USER_ID', 'REDIS_URL']);
  });

  it('requires real Discord credentials away from the sandbox, and a session secret in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'DASHBOARD_URL',
      'DISCORD_BOT_TOKEN',
      'DISCORD_CLIENT_ID',
      'DISCORD_CLIENT_SECRET',
      'PUBLIC_API_URL',
      'SESSION_SECRET',
    ]);
    expect(
      problemsOf({ DISCORD_API_BASE: 'https://discord.com/api' })
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['DISCORD_BOT_TOKEN', 'DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET']);
    expect(problemsOf({ ...SANDBOX, SESSION_SECRET: 'short' })[0]).toMatch(/^SESSION_SECRET: .*32/);
  });

  it('takes a good production env, and refuses the demo secret in it naming SESSION_SECRET', () => {
    const good = productionTestEnv();
    expect(loadApiConfig(good)).toMatchObject({ nodeEnv: 'production', sessionSecret: good.SESSION_SECRET });
    expect(
      problemsOf({ ...good, SESSION_SECRET: 'compose-demo-secret-change-me-before-going-public' }),
    ).toEqual([expect.stringMatching(/^SESSION_SECRET: is a secret published in this repository/)]);
  });

  it('trims trailing slashes from URLs and treats empty values as unset', () => {
    const config = loadApiConfig({ ...SANDBOX, DASHBOARD_URL: 'http://localhost:5173/', API_PORT: '' });
    expect(config.dashboardUrl).toBe('http://localhost:5173');
    expect(config.port).toBe(4000);
  });

  it('sends bot requests to DISCORD_PROXY_URL when set, and warns at start when not', () => {
    const alone = loadApiConfig(SANDBOX);
    expect(alone.discord.proxyBases).toBeNull();
    expect(alone.warnings.join()).toMatch(/DISCORD_PROXY_URL is not set/);
    const shared = loadApiConfig({ ...SANDBOX, DISCORD_PROXY_URL: 'http://127.0.0.1:4200/api/' });
    expect(shared.discord.proxyBases).toEqual(['http://127.0.0.1:4200/api']);
    expect(shared.warnings.join()).not.toMatch(/DISCORD_PROXY_URL/);
    expect(problemsOf({ ...SANDBOX, DISCORD_PROXY_URL: 'proxy:4200' })[0]).toMatch(/^DISCORD_PROXY_URL:/);
    expect(problemsOf({ ...SANDBOX, DISCORD_PROXY_URL: 'http://127.0.0.1:4200' })).toEqual([
      expect.stringMatching(/^DISCORD_PROXY_URL: must end with \/api[^\n]*http:\/\/127\.0\.0\.1:4200\/api/),
    ]);
    expect(problemsOf({ DISCORD_API_BASE: 'http://127.0.0.1:4100' })).toContainEqual(
      expect.stringMatching(/^DISCORD_API_BASE: must end with \/api/),
    );
  });
});
