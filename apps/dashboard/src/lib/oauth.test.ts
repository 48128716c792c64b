import { decodeInstallState } from '@spacecadet/contract/install-state';
import { describe, expect, it } from 'vitest';
import { getConfig } from '../config.ts';
import { defaultInviteUrl } from './invite-url.ts';
import { buildSignInUrl, safeReturnPath, takeReturnPath } from './oauth.ts';
import { SESSION_KEYS } from './session.ts';

describe('defaultInviteUrl', () => {
  it('is a complete bot authorize request that returns to the API install callback', () => {
    const config = getConfig();
    const url = new URL(defaultInviteUrl('300000000000000002'));
    expect(`${url.origin}${url.pathname}`).toBe(`${config.discordOauthBase}/oauth2/authorize`);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      client_id: config.discordClientId,
      scope: 'bot guilds applications.commands',
      response_type: 'code',
      redirect_uri: `${config.apiUrl}/install/callback`,
      guild_id: '300000000000000002',
      disable_guild_select: 'true',
    });
    expect(decodeInstallState(query.state)).toBe('300000000000000002');
  });

  it('lets the user pick the server when none is given', () => {
    const url = new URL(defaultInviteUrl());
    expect(url.searchParams.has('guild_id')).toBe(false);
    expect(decodeInstallState(url.searchParams.get('state'))).toBeUndefined();
    expect(url.searchParams.get('response_type')).toBe('code');
  });
});

describe('the return path after sign-in', () => {
  it('keeps a dashboard path with its query and hash', () => {
    expect(safeReturnPath('/dashboard')).toBe('/dashboard');
    expect(safeReturnPath('/dashboard/leveling/boosts?guild=300000000000000001#list')).toBe(
      '/dashboard/leveling/boosts?guild=300000000000000001#list',
    );
  });

  it("keeps a server's public leaderboard page, and no other path under /leaderboard", () => {
    expect(safeReturnPath('/leaderboard/300000000000000001?page=2')).toBe(
      '/leaderboard/300000000000000001?page=2',
    );
    for (const raw of [
      '/leaderboard',
      '/leaderboard/',
      '/leaderboard/abc',
      '/leaderboard/300000000000000001/x',
    ]) {
      expect(safeReturnPath(raw), raw).toBeNull();
    }
  });

  it('refuses other hosts, schemes and paths outside the dashboard', () => {
    for (const raw of [
      '//evil.example/dashboard',
      '/\\evil.example/dashboard',
      '\\\\evil.example',
      'https://evil.example/dashboard',
      'javascript:alert(1)',
      'dashboard',
      '/dashboard/../auth/callback',
      '/dashboardx',
      '/terms',
      '/dashboard\n/x',
      '',
      null,
      42,
    ]) {
      expect(safeReturnPath(raw), String(raw)).toBeNull();
    }
  });

  it('is stored for the round trip only when sign-in starts from a dashboard page', async () => {
    await buildSignInUrl('/dashboard/stats?guild=300000000000000001');
    expect(window.sessionStorage.getItem(SESSION_KEYS.returnTo)).toBe(
      '/dashboard/stats?guild=300000000000000001',
    );
    // The OAuth request itself does not carry it.
    const url = new URL(await buildSignInUrl('/dashboard/stats?guild=300000000000000001'));
    expect(url.search).not.toContain('stats');
    await buildSignInUrl('//evil.example');
    expect(window.sessionStorage.getItem(SESSION_KEYS.returnTo)).toBeNull();
    await buildSignInUrl('/dashboard');
    await buildSignInUrl();
    expect(window.sessionStorage.getItem(SESSION_KEYS.returnTo)).toBeNull();
  });

  it('is read once, and checked again when read', () => {
    window.sessionStorage.setItem(SESSION_KEYS.returnTo, '/dashboard/stats');
    expect(takeReturnPath()).toBe('/dashboard/stats');
    expect(takeReturnPath()).toBeNull();
    window.sessionStorage.setItem(SESSION_KEYS.returnTo, '//evil.example');
    expect(takeReturnPath()).toBeNull();
  });
});
