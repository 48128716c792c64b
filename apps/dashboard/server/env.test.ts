// @vitest-environment node
import { productionTestEnv } from '@spacecadet/testing';
import { describe, expect, it } from 'vitest';
import { loadDashboardEnv } from './env.ts';

describe('loadDashboardEnv', () => {
  it('defaults to the local sandbox and API', () => {
    expect(loadDashboardEnv({})).toEqual({
      port: 5173,
      host: '127.0.0.1',
      config: {
        apiUrl: 'http://127.0.0.1:4000',
        discordClientId: '100000000000000001',
        discordOauthBase: 'http://127.0.0.1:4100',
        cdnBase: 'http://127.0.0.1:4100',
      },
    });
  });

  it('takes a good production env without a bot token, and refuses the sandbox client id', () => {
    const good = { ...productionTestEnv(), DISCORD_OAUTH_BASE: 'https://discord.com' };
    expect(loadDashboardEnv(good).config.discordClientId).toBe(good.DISCORD_CLIENT_ID);
    expect(() => loadDashboardEnv({ ...good, DISCORD_CLIENT_ID: undefined })).toThrow(
      /DISCORD_CLIENT_ID: required in production/,
    );
  });

  it('uses Discord CDN with real Discord, and the owner id when set', () => {
    const env = loadDashboardEnv({
      DISCORD_OAUTH_BASE: 'https://discord.com/',
      PUBLIC_API_URL: 'https://api.example.com/',
      OWNER_USER_ID: '200000000000000001',
      DASHBOARD_PORT: '8080',
    });
    expect(env.port).toBe(8080);
    expect(env.config).toMatchObject({
      apiUrl: 'https://api.example.com',
      discordOauthBase: 'https://discord.com',
      cdnBase: 'https://cdn.discordapp.com',
      ownerUserId: '200000000000000001',
    });
  });

  it('names the bad variable', () => {
    expect(() => loadDashboardEnv({ DISCORD_CLIENT_ID: 'abc' })).toThrow(/DISCORD_CLIENT_ID/);
  });
});
