/**
 * A small typed client for the few Discord calls the API makes, typed by discord-api-types
 * (discord-answers.ts). Every response is parsed, so a surprise from Discord (or the sandbox)
 * is an error here, not a crash further on.
 *
 * Why one file: this is the API's one Discord layer, the only file allowed to call Discord's
 * REST (scripts/discord-layer.test.ts); every call, bot, bearer or OAuth, goes through its one
 * `request`, which holds the auth, the proxy, the timeout and the parsing of answers and errors.
 */
import { PROXY_NOT_SENT_HEADER, proxyRequestNeverSent } from '@spacecadet/contract';
import { z } from 'zod';
import * as answers from './discord-answers.ts';
import { DISCORD_PROXY_UNREACHABLE, DiscordError, errorAnswer } from './discord-error.ts';

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

export { DISCORD_PROXY_UNREACHABLE, DiscordError } from './discord-error.ts';

export interface DiscordClientOptions {
  apiBase: string;
  clientId: string;
  clientSecret: string;
  botToken: string;
  /**
   * The shared rate limiter (DISCORD_PROXY_URL) that bot-token requests go through, so they
   * count in the same limits as the workers': every proxy of the set, tried in turn (see
   * `send`); null: straight to `apiBase`. Bearer and OAuth requests always go direct: Discord
   * limits them per user token, not the bot's.
   */
  proxyBases?: readonly string[] | null;
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
  /** Where bot requests go: the proxies (in turn), else Discord. */
  private readonly botBases: readonly string[];
  /** The proxy that took the last bot request: the next starts there. */
  private botBaseIndex = 0;

  constructor(private readonly options: DiscordClientOptions) {
    this.base = `${options.apiBase}/v10`;
    const proxies = options.proxyBases ?? [];
    this.botBases = (proxies.length > 0 ? proxies : [options.apiBase]).map((base) => `${base}/v10`);
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
   * The HTTP status of a Discord proxy's `/healthz` (at the root of its DISCORD_PROXY_URL `/api`)
   * and whether it says it is the active one of its set (null: it does not say). Throws a
   * DiscordError (status 0) when it does not answer.
   */
  async proxyHealth(proxyBase: string): Promise<{ url: string; status: number; active: boolean | null }> {
    const url = `${proxyBase.replace(/\/api$/, '')}/healthz`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs) });
      const text = await response.text();
      const body = z
        .object({ active: z.boolean() })
        .safeParse(text.startsWith('{') ? JSON.parse(text) : null);
      return { url, status: response.status, active: body.success ? body.data.active : null };
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

    const init: RequestInit = { method, headers, ...(form ? { body: form.toString() } : {}) };
    const response = await this.send(auth.kind === 'bot' ? this.botBases : [this.base], path, init);
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      // Non-JSON bodies (a proxy's HTML error page) are reported by status below.
    }
    if (!response.ok) throw errorAnswer(response, json);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new DiscordError(response.status, `Unexpected response from Discord for ${method} ${path}`);
    }
    return parsed.data;
  }

  /**
   * Sends to the first base (the proxies of a set, from the one that took the last request) that
   * takes a connection and sends it on: one that took no connection, or answered that it sent
   * nothing (PROXY_NOT_SENT_HEADER), never sent it, so the next may. One whose connection died
   * after the request went may have sent it to Discord: only a read goes to the next one.
   */
  private async send(bases: readonly string[], path: string, init: RequestInit): Promise<Response> {
    const viaProxy = bases === this.botBases && (this.options.proxyBases?.length ?? 0) > 0;
    const rereadable = init.method === 'GET';
    const start = bases === this.botBases ? this.botBaseIndex : 0;
    let failure: unknown;
    for (let tried = 0; tried < bases.length; tried++) {
      const index = (start + tried) % bases.length;
      try {
        const signal = AbortSignal.timeout(this.options.timeoutMs);
        const response = await fetch(`${bases[index]}${path}`, { ...init, signal });
        if (response.headers.has(PROXY_NOT_SENT_HEADER) && tried < bases.length - 1) {
          await response.body?.cancel();
          continue;
        }
        if (bases === this.botBases) this.botBaseIndex = index;
        return response;
      } catch (error) {
        failure = error;
        if (!proxyRequestNeverSent(error) && !rereadable) break;
      }
    }
    const reason = failure instanceof Error ? failure.message : String(failure);
    // The proxy is our own dependency: it not answering is a service down (503), not Discord.
    throw new DiscordError(0, reason, viaProxy ? DISCORD_PROXY_UNREACHABLE : null, { cause: failure });
  }
}
