import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applicationOwner } from './application-object.ts';
import type { SandboxContext } from './context.ts';
import { apiGuild } from './payloads.ts';
import type { AccessGrant } from './state.ts';

const ACCESS_TTL_S = 604800;

type TokenBody = Partial<
  Record<
    | 'grant_type'
    | 'code'
    | 'redirect_uri'
    | 'code_verifier'
    | 'refresh_token'
    | 'client_id'
    | 'client_secret'
    | 'scope'
    | 'token',
    string
  >
>;

const oauthError = (reply: FastifyReply, status: number, error: string, description?: string) =>
  reply.code(status).send(description ? { error, error_description: description } : { error });

function clientAuthenticated(ctx: SandboxContext, req: FastifyRequest, body: TokenBody): boolean {
  let id = body.client_id;
  let secret = body.client_secret;
  const auth = req.headers.authorization;
  if (auth?.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    const sep = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, sep));
    secret = decodeURIComponent(decoded.slice(sep + 1));
  }
  return id === ctx.state.application.id && secret === ctx.state.application.client_secret;
}

function issue(ctx: SandboxContext, userId: string, scopes: string[]): AccessGrant {
  const grant: AccessGrant = {
    access_token: randomBytes(24).toString('base64url'),
    refresh_token: randomBytes(24).toString('base64url'),
    user_id: userId,
    scopes,
    expires_at: ctx.state.now() + ACCESS_TTL_S * 1000,
  };
  ctx.state.accessTokens.set(grant.access_token, grant);
  ctx.state.refreshTokens.set(grant.refresh_token, grant);
  return grant;
}

const tokenResponse = (grant: AccessGrant) => ({
  access_token: grant.access_token,
  token_type: 'Bearer',
  expires_in: ACCESS_TTL_S,
  refresh_token: grant.refresh_token,
  scope: grant.scopes.join(' '),
});

/**
 * Discord reads the token endpoints' fields from an `application/x-www-form-urlencoded` body
 * only: a JSON (or any other) body is as good as none, so its grant type is "None".
 */
function formBody(req: FastifyRequest): TokenBody {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return {};
  return (req.body as TokenBody | undefined) ?? {};
}

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token', 'client_credentials']);

function verifierMatches(challenge: string, method: string | null, verifier: string): boolean {
  if (method === 'S256') return createHash('sha256').update(verifier).digest('base64url') === challenge;
  return verifier === challenge;
}

/** `POST /oauth2/token` (code + PKCE, refresh, client credentials) and `/oauth2/token/revoke`, Discord's error bodies. */
export function registerToken(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  api.post('/oauth2/token', async (req, reply) => {
    const body = formBody(req);
    // Discord checks the grant type before the client: a JSON body gets this answer.
    if (!body.grant_type || !GRANT_TYPES.has(body.grant_type)) {
      return oauthError(
        reply,
        400,
        'unsupported_grant_type',
        `Grant type ${body.grant_type || 'None'} is not supported`,
      );
    }
    if (!clientAuthenticated(ctx, req, body)) return oauthError(reply, 401, 'invalid_client');
    if (body.grant_type === 'client_credentials') {
      // A token for the application's owner, with no refresh token, as Discord answers it.
      const scopes = (body.scope ?? 'identify').split(/[ +]/).filter(Boolean);
      const { refresh_token: _, ...answer } = tokenResponse(issue(ctx, applicationOwner(state).id, scopes));
      return answer;
    }
    if (body.grant_type === 'authorization_code') {
      const code = body.code ? state.codes.get(body.code) : undefined;
      if (!code || code.expires_at <= state.now()) {
        if (code) state.codes.delete(code.code);
        return oauthError(reply, 400, 'invalid_grant', `Invalid "code" in request.`);
      }
      if (code.redirect_uri !== null && body.redirect_uri !== code.redirect_uri) {
        return oauthError(reply, 400, 'invalid_grant', `Invalid "redirect_uri" in request.`);
      }
      if (code.code_challenge !== null) {
        if (!body.code_verifier) return oauthError(reply, 400, 'invalid_request', 'Missing "code_verifier".');
        if (!verifierMatches(code.code_challenge, code.code_challenge_method, body.code_verifier)) {
          return oauthError(reply, 400, 'invalid_grant', `Invalid "code_verifier" in request.`);
        }
      }
      state.codes.delete(code.code);
      const grant = issue(ctx, code.user_id, code.scopes);
      const guild = code.guild_id ? state.guilds.get(code.guild_id) : undefined;
      return guild ? { ...tokenResponse(grant), guild: apiGuild(guild) } : tokenResponse(grant);
    }
    const old = body.refresh_token ? state.refreshTokens.get(body.refresh_token) : undefined;
    if (!old) return oauthError(reply, 400, 'invalid_grant', `Invalid "refresh_token" in request.`);
    state.refreshTokens.delete(old.refresh_token);
    return tokenResponse(issue(ctx, old.user_id, old.scopes));
  });

  api.post('/oauth2/token/revoke', async (req, reply) => {
    const body = formBody(req);
    if (!clientAuthenticated(ctx, req, body)) return oauthError(reply, 401, 'invalid_client');
    const token = body.token ?? '';
    const grant = state.accessTokens.get(token) ?? state.refreshTokens.get(token);
    if (grant) {
      state.accessTokens.delete(grant.access_token);
      state.refreshTokens.delete(grant.refresh_token);
    }
    return {};
  });
}
