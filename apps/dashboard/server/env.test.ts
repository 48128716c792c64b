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

  it("serves the operator's links and name when set, and none when blank", () => {
    const env = loadDashboardEnv({
      SUPPORT_URL: 'https://discord.gg/our-support',
      COMMUNITY_URL: 'https://discord.gg/our-community',
      PRIVACY_CONTACT: 'privacy@example.org',
      OPERATOR_NAME: ' Example Bots Ltd ',
    });
    expect(env.config.operator).toEqual({
      name: 'Example Bots Ltd',
      supportUrl: 'https://discord.gg/our-support',
      communityUrl: 'https://discord.gg/our-community',
      privacyContact: 'privacy@example.org',
    });
    expect(loadDashboardEnv({ PRIVACY_CONTACT: 'https://example.org/privacy' }).config.operator).toEqual({
      privacyContact: 'https://example.org/privacy',
    });
    expect(loadDashboardEnv({ SUPPORT_URL: '', OPERATOR_NAME: '  ' }).config.operator).toBeUndefined();
  });

  it.each([
    ['SUPPORT_URL', 'javascript:alert(1)'],
    ['COMMUNITY_URL', 'discord.gg/x'],
    ['PRIVACY_CONTACT', 'not an address'],
    ['OPERATOR_NAME', 'x'.repeat(101)],
  ])('refuses %s=%s naming it', (name, value) => {
    expect(() => loadDashboardEnv({ [name]: value })).toThrow(new RegExp(name));
  });

  it('names the bad variable', () => {
    expect(() => loadDashboardEnv({ DISCORD_CLIENT_ID: 'abc' })).toThrow(/DISCORD_CLIENT_ID/);
  });
});
