import { decodeInstallState } from '@spacecadet/contract/install-state';
import { describe, expect, it } from 'vitest';
import { getConfig } from '../config.ts';
import { defaultInviteUrl } from './oauth.ts';

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
