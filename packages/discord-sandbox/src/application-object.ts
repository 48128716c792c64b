/** The application as `GET /applications/@me` answers it (Discord's PrivateApplicationResponse). */
import { applicationFlags } from './application.ts';
import type { SandboxState } from './state.ts';

/** The user who owns the application: the first person of the fixture (no team). */
export function applicationOwner(state: SandboxState) {
  const owner = [...state.users.values()].find((u) => !u.bot);
  if (!owner) throw new Error('The fixture has no person to own the application');
  return owner;
}

const userResponse = (user: ReturnType<typeof applicationOwner>) => ({
  public_flags: 0,
  flags: 0,
  ...user,
});

export function applicationObject(state: SandboxState) {
  const app = state.application;
  const flags = applicationFlags(app);
  return {
    id: app.id,
    name: app.name,
    icon: null,
    description: app.description,
    type: null,
    bot: userResponse(state.botUser),
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags,
    flags_new: String(flags),
    redirect_uris: [...app.redirect_uris],
    interactions_endpoint_url: null,
    role_connections_verification_url: null,
    owner: userResponse(applicationOwner(state)),
    team: null,
    rpc_origins: [],
    tags: [],
    install_params: { scopes: ['bot', 'applications.commands'], permissions: app.default_bot_permissions },
    approximate_guild_count: [...state.guilds.values()].filter((g) => state.botIsIn(g)).length,
    approximate_user_install_count: 0,
    approximate_user_authorization_count: 0,
    explicit_content_filter: 0,
    eligible_oauth2_scopes: ['identify', 'guilds', 'bot', 'applications.commands'],
  };
}
