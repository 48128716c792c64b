import { createHash, randomBytes } from 'node:crypto';
import { SANDBOX_BOT_TOKEN, SANDBOX_CLIENT_SECRET, SANDBOX_IDS, type Sandbox } from '../src/index.ts';
import { eventually } from './discordjs-helpers.ts';

export const REDIRECT = 'http://localhost:5173/auth/callback';

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Runs the scripted authorize step and returns the redirect's query. */
export async function authorize(
  sandbox: Sandbox,
  params: Record<string, string>,
): Promise<{ status: number; location: URL | null; text: string }> {
  const query = new URLSearchParams({
    client_id: SANDBOX_IDS.app,
    response_type: 'code',
    scope: 'identify guilds',
    redirect_uri: REDIRECT,
    state: 'st-1',
    ...params,
  });
  for (const [k, v] of Object.entries(params)) if (v === '') query.delete(k);
  const res = await fetch(`${sandbox.oauthBase}/oauth2/authorize?${query}`, { redirect: 'manual' });
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location) : null, text: await res.text() };
}

export async function exchange(sandbox: Sandbox, fields: Record<string, string>) {
  const res = await fetch(`${sandbox.apiBase}/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: SANDBOX_IDS.app,
      client_secret: SANDBOX_CLIENT_SECRET,
      ...fields,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Signs a user in with PKCE and returns the token response. */
export async function signIn(sandbox: Sandbox, userId: string): Promise<Record<string, unknown>> {
  const { verifier, challenge } = pkce();
  const auth = await authorize(sandbox, {
    sandbox_user: userId,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const code = auth.location?.searchParams.get('code') ?? '';
  const { body } = await exchange(sandbox, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  return body;
}

export async function bot(sandbox: Sandbox, method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.apiBase}/v10${path}`, {
    method,
    headers: {
      authorization: `Bot ${SANDBOX_BOT_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

export async function control(sandbox: Sandbox, method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Posts a one-button panel as the bot and starts a click by nia without awaiting the answer. */
export async function clickWithoutBot(sandbox: Sandbox) {
  const panel = await bot(sandbox, 'POST', `/channels/${SANDBOX_IDS.channels.roles}/messages`, {
    components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] }],
  });
  const pending = control(sandbox, 'POST', '/interactions', {
    guild_id: SANDBOX_IDS.guilds.station,
    channel_id: SANDBOX_IDS.channels.roles,
    message_id: (panel.body as { id: string }).id,
    user_id: SANDBOX_IDS.users.nia,
    custom_id: 'go',
  });
  const record = await eventually(() => sandbox.state().interactions[0]);
  return { record, pending };
}
