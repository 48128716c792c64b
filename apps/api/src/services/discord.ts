/**
 * A small typed client for the few Discord calls the API makes, typed by discord-api-types
 * (discord-answers.ts). Every response is parsed, so a surprise from Discord (or the sandbox)
 * is an error here, not a crash further on.
 *
 * Why one file: this is the API's one Discord layer, the only file allowed to call Discord's
 * REST (scripts/discord-layer.test.ts); every call, bot, bearer or OAuth, goes through its one
 * `request`, which holds the auth, the proxy, the timeout and the parsing of answers and errors.
 */
import { z } from 'zod';
import * as answers from './discord-answers.ts';

export type {
  DiscordApplication,
  DiscordChannel,
  DiscordEmoji,
  DiscordGuild,
  DiscordMember,
  DiscordPartialGuild,
  DiscordRole,
  DiscordTokenResponse,
  DiscordUser,
} from './discord-answers.ts';

const DiscordErrorBody = z.object({
  error: z.string().optional(),
  error_description: z.string().optional(),
  message: z.string().optional(),
  code: z.number().optional(),
});

/** The `discordCode` of a bot request the Discord proxy (DISCORD_PROXY_URL) did not answer. */
export const DISCORD_PROXY_UNREACHABLE = 'discord_proxy_unreachable';

/** Discord answered with a non-2xx status, or not at all. */
export class DiscordError extends Error {
  constructor(
    /** HTTP status, or 0 when there was no answer (timeout, refused connection). */
    readonly status: number,
    /** Discord's own wording (`error_description` or `message`) when it gave one. */
    readonly description: string,
    readonly discordCode: string | number | null = null,
    options?: ErrorOptions,
  ) {
    super(`Discord request failed (${status || 'no answer'}): ${description}`, options);
    this.name = 'DiscordError';
  }
}

export interface DiscordClientOptions {
  apiBase: string;
  clientId: string;
  clientSecret: string;
  botToken: string;
  /**
   * The shared rate limiter (DISCORD_PROXY_URL) that bot-token requests go through, so they
   * count in the same limits as the workers'; null: straight to `apiBase`. Bearer and OAuth
   * requests always go direct: Discord limits them per user token, not the bot's.
   */
  proxyBase?: string | null;
  timeoutMs: number;
}

const GUILD_PAGE_SIZE = 200;
/**
 * Discord's JSON error codes for "no such member here": 10007 Unknown Member (a user who is not
 * in the guild) and 10013 Unknown User (an id that names no user at all).
 */
const NOT_A_MEMBER_CODES: ReadonlySet<unknown> = new Set([10007, 10013]);
const GUILD_PAGES_MAX = 5;
/** Discord's JSON error code 10011 Unknown Role: the role is already gone. */
const UNKNOWN_ROLE_CODE = 10011;

type Auth = { kind: 'bearer'; token: string } | { kind: 'bot' } | { kind: 'none' };

export class DiscordClient {
  private readonly base: string;
  private readonly botBase: string;

  constructor(private readonly options: DiscordClientOptions) {
    this.base = `${options.apiBase}/v10`;
    this.botBase = `${options.proxyBase ?? options.apiBase}/v10`;
  }

  /** Authorization-code grant, with PKCE except for Linked Roles (Discord refuses PKCE with that scope). */
  exchangeCode(
    code: string,
    codeVerifier: string | null,
    redirectUri: string,
  ): Promise<answers.DiscordTokenResponse> {
    return this.tokenRequest({
      grant_type: 'authorization_code',
      code,
      ...(codeVerifier === null ? {} : { code_verifier: codeVerifier }),
      redirect_uri: redirectUri,
    });
  }

  /** Clears the user's Linked Roles role connection with their own token. */
  async deleteRoleConnection(accessToken: string): Promise<void> {
    const path = `/users/@me/applications/${encodeURIComponent(this.options.clientId)}/role-connection`;
    await this.request('DELETE', path, { kind: 'bearer', token: accessToken }, z.unknown());
  }

  refreshToken(refreshToken: string): Promise<answers.DiscordTokenResponse> {
    return this.tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  getCurrentUser(accessToken: string): Promise<answers.DiscordUser> {
    return this.request('GET', '/users/@me', { kind: 'bearer', token: accessToken }, answers.DiscordUser);
  }

  private botUser: Promise<answers.DiscordUser> | null = null;

  /** The bot's own user (asked once per process; a failure is asked again next time). */
  getBotUser(): Promise<answers.DiscordUser> {
    this.botUser ??= this.request('GET', '/users/@me', { kind: 'bot' }, answers.DiscordUser).catch(
      (error) => {
        this.botUser = null;
        throw error;
      },
    );
    return this.botUser;
  }

  /** Every guild of the user: Discord answers at most 200 per call (Nitro users may be in 500), so follow `after`. */
  async getCurrentUserGuilds(accessToken: string): Promise<answers.DiscordPartialGuild[]> {
    const guilds: answers.DiscordPartialGuild[] = [];
    for (let page = 0; page < GUILD_PAGES_MAX; page++) {
      const after = guilds.at(-1)?.id;
      const query = new URLSearchParams({ limit: String(GUILD_PAGE_SIZE), ...(after ? { after } : {}) });
      const batch = await this.request(
        'GET',
        `/users/@me/guilds?${query.toString()}`,
        { kind: 'bearer', token: accessToken },
        z.array(answers.DiscordPartialGuild),
      );
      guilds.push(...batch);
      if (batch.length < GUILD_PAGE_SIZE) break;
    }
    return guilds;
  }

  /** The guild's name and icon, with the bot's token. */
  getGuild(guildId: string): Promise<answers.DiscordGuild> {
    return this.request(
      'GET',
      `/guilds/${encodeURIComponent(guildId)}`,
      { kind: 'bot' },
      answers.DiscordGuild,
    );
  }

  getGuildChannels(guildId: string): Promise<answers.DiscordChannel[]> {
    return this.request(
      'GET',
      `/guilds/${encodeURIComponent(guildId)}/channels`,
      { kind: 'bot' },
      z.array(answers.DiscordChannel),
    );
  }

  /** The server's Discord Onboarding (its prompts), read for an import of them as questions. */
  getGuildOnboarding(guildId: string): Promise<answers.DiscordOnboarding> {
    return this.request(
      'GET',
      `/guilds/${encodeURIComponent(guildId)}/onboarding`,
      { kind: 'bot' },
      answers.DiscordOnboarding,
    );
  }

  /** The bot's user id: a bot user shares its application's id. */
  get botUserId(): string {
    return this.options.clientId;
  }

  getGuildRoles(guildId: string): Promise<answers.DiscordRole[]> {
    return this.request(
      'GET',
      `/guilds/${encodeURIComponent(guildId)}/roles`,
      { kind: 'bot' },
      z.array(answers.DiscordRole),
    );
  }

  /** The guild's custom emojis (unicode emojis are every server's, so Discord lists none of them). */
  getGuildEmojis(guildId: string): Promise<answers.DiscordEmoji[]> {
    return this.request(
      'GET',
      `/guilds/${encodeURIComponent(guildId)}/emojis`,
      { kind: 'bot' },
      z.array(answers.DiscordEmoji),
    );
  }

  /** Members whose username or nickname starts with `query` (Discord: case-insensitive, limit 1-1000). */
  searchGuildMembers(guildId: string, query: string, limit: number): Promise<answers.DiscordMember[]> {
    const search = new URLSearchParams({ query, limit: String(limit) });
    return this.request(
      'GET',
      `/guilds/${encodeURIComponent(guildId)}/members/search?${search.toString()}`,
      { kind: 'bot' },
      z.array(answers.DiscordMember),
    );
  }

  /**
   * Every member of the guild, a page of `pageSize` (Discord's most: 1000) at a time in user id
   * order (`GET /guilds/{guild}/members?limit=&after=`), as the worker's `guildMemberPages` reads
   * them: what a destructive button's confirmation counts. Needs the Server Members intent
   * (Discord answers 403 without it). `after` starts the walk past that user id.
   */
  async *guildMemberPages(
    guildId: string,
    pageSize = 1000,
    after = '0',
  ): AsyncGenerator<answers.DiscordMember[]> {
    let cursor = after;
    for (;;) {
      const search = new URLSearchParams({ limit: String(pageSize), after: cursor });
      const page = await this.request(
        'GET',
        `/guilds/${encodeURIComponent(guildId)}/members?${search.toString()}`,
        { kind: 'bot' },
        z.array(answers.DiscordMember),
      );
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      cursor = page.reduce(
        (last, member) => (BigInt(member.user.id) > BigInt(last) ? member.user.id : last),
        cursor,
      );
    }
  }

  /** Whether the user is a member of the guild: Discord answers 404 (Unknown Member) when not. */
  async isGuildMember(guildId: string, userId: string): Promise<boolean> {
    return (await this.getGuildMember(guildId, userId)) !== null;
  }

  /** The guild's member of that id, or null when the id names no member of it. */
  async getGuildMember(guildId: string, userId: string): Promise<answers.DiscordMember | null> {
    try {
      return await this.request(
        'GET',
        `/guilds/${encodeURIComponent(guildId)}/members/${encodeURIComponent(userId)}`,
        { kind: 'bot' },
        answers.DiscordMember,
      );
    } catch (error) {
      if (
        error instanceof DiscordError &&
        error.status === 404 &&
        NOT_A_MEMBER_CODES.has(error.discordCode)
      ) {
        return null;
      }
      throw error;
    }
  }

  /**
   * Deletes a guild role with the bot's token. A role that is already gone (404 Unknown Role)
   * counts as deleted: `'already-gone'`. Any other failure throws a DiscordError.
   */
  async deleteGuildRole(guildId: string, roleId: string): Promise<'deleted' | 'already-gone'> {
    try {
      await this.request(
        'DELETE',
        `/guilds/${encodeURIComponent(guildId)}/roles/${encodeURIComponent(roleId)}`,
        { kind: 'bot' },
        z.unknown(),
      );
      return 'deleted';
    } catch (error) {
      if (error instanceof DiscordError && error.status === 404 && error.discordCode === UNKNOWN_ROLE_CODE) {
        return 'already-gone';
      }
      throw error;
    }
  }

  /** Revokes the grant behind a token (access or refresh), as on logout. */
  async revokeToken(token: string): Promise<void> {
    const form = new URLSearchParams({
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      token,
    });
    await this.request('POST', '/oauth2/token/revoke', { kind: 'none' }, z.unknown(), form);
  }

  /** The bot's application: its id, flags (privileged intents) and redirect URIs. */
  getApplication(): Promise<answers.DiscordApplication> {
    return this.request('GET', '/applications/@me', { kind: 'bot' }, answers.DiscordApplication);
  }

  /** `GET /gateway/bot`: how many gateway session starts the bot has left today. */
  getGatewayBot(): Promise<answers.DiscordGatewayBot> {
    return this.request('GET', '/gateway/bot', { kind: 'bot' }, answers.DiscordGatewayBot);
  }

  /** The application's global slash commands. */
  getGlobalCommands(): Promise<answers.DiscordCommand[]> {
    return this.request(
      'GET',
      `/applications/${encodeURIComponent(this.options.clientId)}/commands`,
      { kind: 'bot' },
      z.array(answers.DiscordCommand),
    );
  }

  /** The client-credentials grant: answers only when the client id and secret are right. */
  clientCredentials(scope: string): Promise<answers.DiscordClientCredentials> {
    const form = new URLSearchParams({
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      grant_type: 'client_credentials',
      scope,
    });
    return this.request('POST', '/oauth2/token', { kind: 'none' }, answers.DiscordClientCredentials, form);
  }

  /**
   * The HTTP status of the Discord proxy's `/healthz` (at the root of DISCORD_PROXY_URL's `/api`),
   * or null when no proxy is set. Throws a DiscordError (status 0) when it does not answer.
   */
  async proxyHealth(): Promise<{ url: string; status: number } | null> {
    if (this.options.proxyBase == null) return null;
    const url = `${this.options.proxyBase.replace(/\/api$/, '')}/healthz`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs) });
      await response.arrayBuffer();
      return { url, status: response.status };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DiscordError(0, reason, DISCORD_PROXY_UNREACHABLE, { cause: error });
    }
  }

  private tokenRequest(fields: Record<string, string>): Promise<answers.DiscordTokenResponse> {
    const form = new URLSearchParams({
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      ...fields,
    });
    return this.request('POST', '/oauth2/token', { kind: 'none' }, answers.DiscordTokenResponse, form);
  }

  private async request<T extends z.ZodType>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    auth: Auth,
    schema: T,
    form?: URLSearchParams,
  ): Promise<z.output<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth.kind === 'bearer') headers.authorization = `Bearer ${auth.token}`;
    if (auth.kind === 'bot') headers.authorization = `Bot ${this.options.botToken}`;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';

    let response: Response;
    try {
      response = await fetch(`${auth.kind === 'bot' ? this.botBase : this.base}${path}`, {
        method,
        headers,
        ...(form ? { body: form.toString() } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // The proxy is our own dependency: it not answering is a service down (503), not Discord.
      const viaProxy = auth.kind === 'bot' && this.options.proxyBase != null;
      throw new DiscordError(0, reason, viaProxy ? DISCORD_PROXY_UNREACHABLE : null, { cause: error });
    }

    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      // Non-JSON bodies (a proxy's HTML error page) are reported by status below.
    }
    if (!response.ok) {
      const body = DiscordErrorBody.safeParse(json);
      const description =
        (body.success && (body.data.error_description ?? body.data.message ?? body.data.error)) ||
        response.statusText ||
        'Discord request failed';
      const code = body.success ? (body.data.error ?? body.data.code ?? null) : null;
      throw new DiscordError(response.status, description, code);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new DiscordError(response.status, `Unexpected response from Discord for ${method} ${path}`);
    }
    return parsed.data;
  }
}
