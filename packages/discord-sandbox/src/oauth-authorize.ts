import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { redirectUriAllowed } from './application.ts';
import type { SandboxContext } from './context.ts';
import { escapeHtml, page } from './html.ts';
import { installBot } from './mutations.ts';
import { canManageGuild } from './permissions.ts';

const KNOWN_SCOPES = new Set([
  'identify',
  'email',
  'guilds',
  'guilds.members.read',
  'connections',
  'bot',
  'applications.commands',
  'webhook.incoming',
  'openid',
  'role_connections.write',
]);
const CODE_TTL_MS = 10 * 60 * 1000;

export type AuthorizeQuery = Partial<
  Record<
    | 'client_id'
    | 'redirect_uri'
    | 'response_type'
    | 'scope'
    | 'state'
    | 'code_challenge'
    | 'code_challenge_method'
    | 'prompt'
    | 'permissions'
    | 'guild_id'
    | 'sandbox_user',
    string
  >
>;

function errorPage(reply: FastifyReply, message: string): FastifyReply {
  return reply
    .code(400)
    .type('text/html; charset=utf-8')
    .send(
      page('Authorization error', `<h1>Invalid OAuth2 request</h1><p class="err">${escapeHtml(message)}</p>`),
    );
}

/** Discord's redirect for a scope it refuses in this grant. */
function invalidScope(reply: FastifyReply, redirectUri: string, state: string | undefined): FastifyReply {
  const target = new URL(redirectUri);
  target.searchParams.set('error', 'invalid_scope');
  target.searchParams.set('error_description', 'The requested scope is invalid, unknown, or malformed.');
  if (state !== undefined) target.searchParams.set('state', state);
  return reply.redirect(target.toString(), 302);
}

function linkWith(query: AuthorizeQuery, extra: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...query, ...extra })) if (v !== undefined) params.set(k, v);
  return `/oauth2/authorize?${params.toString()}`;
}

/** `GET /oauth2/authorize`: a picker page for people, instant approval with `sandbox_user`. */
export function registerAuthorize(app: FastifyInstance, ctx: SandboxContext): void {
  // Discord answers on both /oauth2/authorize and /api[/v10]/oauth2/authorize.
  const paths = ['/oauth2/authorize', '/api/oauth2/authorize', '/api/v10/oauth2/authorize'];
  for (const path of paths)
    app.get<{ Querystring: AuthorizeQuery }>(path, async (req, reply) => {
      const { state } = ctx;
      const q = req.query;
      if (!q.client_id) return errorPage(reply, 'Missing "client_id".');
      if (q.client_id !== state.application.id)
        return errorPage(reply, 'Unknown application (invalid "client_id").');
      const scopes = (q.scope ?? '').split(/[ +]/).filter(Boolean);
      if (scopes.length === 0) return errorPage(reply, 'Missing "scope".');
      const unknown = scopes.find((s) => !KNOWN_SCOPES.has(s));
      if (unknown) return errorPage(reply, `Invalid scope "${unknown}".`);
      const isBot = scopes.includes('bot');
      const userScopes = scopes.some((s) => s !== 'bot' && s !== 'applications.commands');
      if (userScopes && q.response_type !== 'code')
        return errorPage(reply, '"response_type" must be "code".');
      if (userScopes && !q.redirect_uri) return errorPage(reply, 'Missing "redirect_uri".');
      if (q.redirect_uri && !/^https?:\/\/[^\s]+$/.test(q.redirect_uri)) {
        return errorPage(reply, 'Invalid "redirect_uri".');
      }
      // Discord sends people only to a redirect URI registered for the application.
      if (q.redirect_uri && !redirectUriAllowed(state.application, q.redirect_uri)) {
        return errorPage(reply, 'Invalid OAuth2 redirect_uri');
      }
      if (q.code_challenge_method && !['S256', 'plain'].includes(q.code_challenge_method)) {
        return errorPage(reply, '"code_challenge_method" must be S256.');
      }
      if (q.code_challenge_method && !q.code_challenge) return errorPage(reply, 'Missing "code_challenge".');
      // Discord refuses PKCE for role_connections.write: a user could mint their own token without
      // the client secret and claim any linked-role value (discord-api-docs#5751).
      if (scopes.includes('role_connections.write') && q.code_challenge && q.redirect_uri) {
        return invalidScope(reply, q.redirect_uri, q.state);
      }
      if (q.permissions && !/^\d+$/.test(q.permissions)) return errorPage(reply, 'Invalid "permissions".');

      if (!q.sandbox_user || (isBot && !q.guild_id)) return pickerPage(ctx, reply, q, isBot);
      const user = state.users.get(q.sandbox_user);
      if (!user || user.bot) return errorPage(reply, `Unknown sandbox user "${q.sandbox_user}".`);

      let permissions: string | null = null;
      let guildId: string | null = null;
      if (isBot) {
        const guild = q.guild_id ? state.guilds.get(q.guild_id) : undefined;
        if (!guild) return errorPage(reply, `Unknown guild "${q.guild_id ?? ''}".`);
        if (!canManageGuild(guild, user.id)) {
          return errorPage(reply, `${user.username} cannot manage ${guild.name}, so cannot add a bot there.`);
        }
        permissions = q.permissions ?? state.application.default_bot_permissions;
        guildId = guild.id;
        installBot(state, guild, permissions);
      }

      const code = randomBytes(20).toString('base64url');
      state.codes.set(code, {
        code,
        user_id: user.id,
        scopes,
        redirect_uri: q.redirect_uri ?? null,
        code_challenge: q.code_challenge ?? null,
        code_challenge_method: q.code_challenge ? (q.code_challenge_method ?? 'plain') : null,
        guild_id: guildId,
        permissions,
        expires_at: state.now() + CODE_TTL_MS,
      });

      if (!q.redirect_uri) {
        const guild = guildId ? state.guilds.get(guildId) : undefined;
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page(
              'Authorized',
              `<h1>${guild ? 'Bot added' : 'Authorized'}</h1><p>${escapeHtml(state.application.name)} ${
                guild ? `was added to <b>${escapeHtml(guild.name)}</b>` : 'was authorized'
              }. You may close this window.</p>`,
            ),
          );
      }
      const target = new URL(q.redirect_uri);
      target.searchParams.set('code', code);
      if (q.state !== undefined) target.searchParams.set('state', q.state);
      if (guildId) target.searchParams.set('guild_id', guildId);
      if (permissions) target.searchParams.set('permissions', permissions);
      return reply.redirect(target.toString(), 302);
    });
}

function pickerPage(
  ctx: SandboxContext,
  reply: FastifyReply,
  q: AuthorizeQuery,
  isBot: boolean,
): FastifyReply {
  const { state } = ctx;
  const users = [...state.users.values()].filter((u) => !u.bot);
  const items = users.map((u) => {
    const avatar = `<span class="av">${escapeHtml((u.global_name ?? u.username).slice(0, 1).toUpperCase())}</span>`;
    if (!isBot) {
      return `<li><a class="pick" data-user-id="${u.id}" href="${escapeHtml(linkWith(q, { sandbox_user: u.id }))}">${avatar}<span>${escapeHtml(u.global_name ?? u.username)} <span class="muted">@${escapeHtml(u.username)} · ${u.id}</span></span></a></li>`;
    }
    // A link that names guild_id preselects that server, as Discord's consent screen does.
    const guilds = [...state.guilds.values()].filter(
      (g) => canManageGuild(g, u.id) && (!q.guild_id || g.id === q.guild_id),
    );
    const links = guilds
      .map(
        (g) =>
          `<li><a class="pick" data-user-id="${u.id}" data-guild-id="${g.id}" href="${escapeHtml(linkWith(q, { sandbox_user: u.id, guild_id: g.id }))}"><span class="av">${escapeHtml(g.name.slice(0, 1))}</span><span>${escapeHtml(g.name)}${state.botIsIn(g) ? ' <span class="muted">(already added)</span>' : ''}</span></a></li>`,
      )
      .join('');
    return `<li><h2>${escapeHtml(u.global_name ?? u.username)} <span class="muted">@${escapeHtml(u.username)}</span></h2><ul>${links || '<li class="muted">No server this user can manage.</li>'}</ul></li>`;
  });
  const title = isBot ? `Add ${state.application.name} to a server` : `Sign in to ${state.application.name}`;
  const lead = isBot
    ? 'Pick who you are and the server to add the bot to. Only servers where that user has Manage Server are listed.'
    : 'Sandbox Discord: pick the user to sign in as. Clicking approves the request.';
  return reply
    .type('text/html; charset=utf-8')
    .send(page(title, `<h1>${escapeHtml(title)}</h1><p>${lead}</p><ul>${items.join('')}</ul>`));
}
