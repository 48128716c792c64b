import { LINKED_ROLES_PATH, LINKED_ROLES_SCOPES } from '@spacecadet/contract';
import { getConfig } from '../config.ts';
import { randomToken } from '../lib/oauth.ts';

/** The linking OAuth's state, kept in this tab until Discord sends the member back. */
export const LINK_STATE_KEY = 'linked_roles_state';

/** Where Discord sends the member back: this page, the application's verification URL too. */
export const linkRedirectUri = () => `${window.location.origin}${LINKED_ROLES_PATH}`;

/**
 * The authorize address of the linking OAuth: the code grant with a state and no PKCE (Discord
 * refuses PKCE with `role_connections.write`: the API trades the code with the client secret).
 */
export function buildLinkUrl(): string {
  const config = getConfig();
  const state = randomToken(16);
  window.sessionStorage.setItem(LINK_STATE_KEY, state);
  const query = new URLSearchParams({
    client_id: config.discordClientId,
    redirect_uri: linkRedirectUri(),
    response_type: 'code',
    scope: LINKED_ROLES_SCOPES.join(' '),
    prompt: 'consent',
    state,
  });
  return `${config.discordOauthBase}/oauth2/authorize?${query.toString()}`;
}

/** Whether Discord's `state` is the one this tab sent (then forgotten: a code is used once). */
export function takeLinkState(state: string | null): boolean {
  const expected = window.sessionStorage.getItem(LINK_STATE_KEY);
  window.sessionStorage.removeItem(LINK_STATE_KEY);
  return expected !== null && state !== null && state === expected;
}
