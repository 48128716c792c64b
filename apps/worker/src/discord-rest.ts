import { API, type CreateMessageOptions } from '@discordjs/core/http-only';
import { PROXY_NOT_SENT_HEADER, proxyRequestNeverSent } from '@spacecadet/contract';
import { messageNonce } from '@spacecadet/core/message-nonce';
import {
  type APIGuildMember,
  type APIMessage,
  type APIRole,
  type Client,
  DefaultRestOptions,
  DiscordAPIError,
  HTTPError,
  REST,
  RESTJSONErrorCodes,
  type RESTOptions,
  type RESTPostOAuth2AccessTokenResult,
  type RESTPutAPIApplicationRoleConnectionMetadataJSONBody,
} from 'discord.js';
import type { WorkerConfig } from './env.ts';

/*
 * Why one file: every Discord REST call of the worker goes through here (a house rule, checked by
 * scripts/discord-layer.test.ts), and the proxy failover, the nonce and the error codes it
 * decides on belong together with the client options that use them.
 */

/**
 * Interaction callbacks and interaction webhooks (edits of an answer, follow-ups): Discord does
 * not count them in the bot's global limit, so they never queue in the shared proxy behind
 * role changes; a click's answer goes straight to Discord.
 */
const EXEMPT_FROM_PROXY = /^\/v\d+\/(interactions\/\d+\/[^/]+\/callback|webhooks\/\d+\/[^/?]+)(\/|\?|$)/;

/**
 * The REST options of the worker's discord.js client. With DISCORD_PROXY_URL every bot request
 * goes through the shared proxy (`@spacecadet/discord-proxy`), which holds the token's global
 * limit, route buckets and invalid-request budget for every process; this process then keeps no
 * limit of its own (a second global limit here would only add waits). Interaction answers go
 * direct. Without it, the client keeps discord.js's own limits, which hold for one process only.
 */
export function discordRestOptions(
  config: Pick<WorkerConfig, 'discordApiBase' | 'discordProxyUrls'>,
): Partial<RESTOptions> {
  const proxies = config.discordProxyUrls;
  if (proxies === null || proxies[0] === undefined) return { api: config.discordApiBase };
  const first = proxies[0];
  const toProxies = proxyFailover(proxies);
  return {
    api: first,
    globalRequestsPerSecond: Number.POSITIVE_INFINITY,
    // A request may wait its turn in the proxy behind other processes' requests: a timeout here
    // would send it a second time.
    timeout: 60_000,
    makeRequest(url, init) {
      const route = url.startsWith(first) ? url.slice(first.length) : null;
      if (route === null) return DefaultRestOptions.makeRequest(url, init);
      if (EXEMPT_FROM_PROXY.test(route))
        return DefaultRestOptions.makeRequest(`${config.discordApiBase}${route}`, init);
      return toProxies(route, init);
    },
  };
}

/** What a request whose connection to the proxy died after it went is thrown as (see `proxyFailover`). */
export const PROXY_CONNECTION_LOST = 'DISCORD_PROXY_CONNECTION_LOST';

/**
 * Sends each request to the proxy that answered last, and to the next one of the list when it
 * takes no connection (refused, no such host: `proxyRequestNeverSent`) or answers that it sent
 * nothing (PROXY_NOT_SENT_HEADER), which is safe: nothing was sent. A connection that died after the request went (its proxy died with it) may have
 * taken the request to Discord already: a read goes to the next proxy, anything else fails as
 * PROXY_CONNECTION_LOST. That code is not one discord.js retries on its own (it would send a
 * role create twice); `isDiscordUnreachable` counts it, so the job waits for Discord and runs
 * again, and a job run again checks what Discord already has before it changes anything.
 */
function proxyFailover(proxies: readonly string[]) {
  let current = 0;
  return async (route: string, init: Parameters<RESTOptions['makeRequest']>[1]) => {
    const rereadable = init.method === undefined || init.method === 'GET' || init.method === 'HEAD';
    let lastError: unknown;
    for (let tried = 0; tried < proxies.length; tried++) {
      const index = (current + tried) % proxies.length;
      try {
        const response = await DefaultRestOptions.makeRequest(`${proxies[index]}${route}`, init);
        // That proxy sent nothing (it does not know the active one): the next may.
        if (response.headers.get(PROXY_NOT_SENT_HEADER) !== null && tried < proxies.length - 1) {
          await response.arrayBuffer();
          continue;
        }
        current = index;
        return response;
      } catch (error) {
        if (init.signal?.aborted) throw error;
        if (!proxyRequestNeverSent(error) && !rereadable) {
          throw Object.assign(
            new Error('The connection to the Discord proxy closed before its answer', { cause: error }),
            {
              code: PROXY_CONNECTION_LOST,
            },
          );
        }
        lastError = error;
      }
    }
    throw lastError;
  };
}

/**
 * The worker's one way to Discord's REST API: @discordjs/core's typed `API` over the client's
 * own REST, so every call shares its rate limits and fails with its DiscordAPIError, and every
 * answer has discord-api-types' type. Jobs use REST (not the gateway cache) so any worker
 * process can run any guild's job, whichever shards it holds.
 */
const apis = new WeakMap<Client, API>();

/** The typed API over this client's REST (one per client). */
export function discordApi(client: Client): API {
  let api = apis.get(client);
  if (!api) {
    api = new API(client.rest);
    apis.set(client, api);
  }
  return api;
}

/**
 * Discord does not count any interaction answer against the bot's global limit, but discord.js's
 * REST client exempts only the first callback: edits of a deferred answer and follow-ups (the
 * interaction webhook) would queue behind role changes for the global 50 a second, and take
 * their share of it. They go through a REST client of their own with no global limit (each
 * webhook's own route limit still holds); the bot token is never sent with them (@discordjs/core
 * sends interaction webhook calls without auth).
 */
const answerApis = new WeakMap<Client, API>();

/** The typed API for interaction answers (edits and follow-ups) of this client. */
export function interactionAnswerApi(client: Client): API {
  let api = answerApis.get(client);
  if (!api) {
    api = new API(new REST({ ...client.options.rest, globalRequestsPerSecond: Number.POSITIVE_INFINITY }));
    answerApis.set(client, api);
  }
  return api;
}

export function isDiscordError(error: unknown, ...codes: number[]): error is DiscordAPIError {
  return error instanceof DiscordAPIError && typeof error.code === 'number' && codes.includes(error.code);
}

export const DiscordCodes = RESTJSONErrorCodes;

/**
 * How many times a post whose earlier message was deleted is made again (see `postMessageOnce`):
 * each time means an admin deleted the message within minutes of its post.
 */
const REPOSTS_AFTER_DELETE = 3;

/**
 * Posts a message (in a channel or a DM) as the one logical post `nonce` names (core
 * `messageNonce`), with `enforce_nonce`: when the same post is sent again within Discord's few
 * minutes — the request retried after waiting behind a rate limit, the job or delivery run again
 * by another attempt while the first still waits in the proxy — Discord answers the message
 * already made instead of posting a second one. Every post that may be retried goes through
 * here. A nonce whose message was deleted since is answered 404 10008 instead of a post: then
 * the post is made under a successor nonce, itself deterministic, so concurrent retries of it
 * still make one message.
 */
export async function postMessageOnce(
  client: Client,
  channelId: string,
  body: CreateMessageOptions,
  nonce: string,
): Promise<APIMessage> {
  let current = nonce;
  for (let reposts = 0; ; reposts += 1) {
    try {
      return await discordApi(client).channels.createMessage(channelId, {
        ...body,
        nonce: current,
        enforce_nonce: true,
      });
    } catch (error) {
      if (reposts >= REPOSTS_AFTER_DELETE || !isDiscordError(error, DiscordCodes.UnknownMessage)) throw error;
      current = messageNonce('reposted', current);
    }
  }
}

/**
 * Network failures on the way to the Discord proxy or to Discord: the connection was refused,
 * reset, timed out or the host could not be found.
 */
const UNREACHABLE_CODES = new Set([
  PROXY_CONNECTION_LOST,
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
/** What the Discord proxy (or Discord's edge) answers when it cannot get an answer upstream. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

/**
 * Whether a REST call failed because Discord (or the Discord proxy, DISCORD_PROXY_URL) could not
 * be reached, after discord.js's own retries: a connection refused, reset or timed out, or a
 * 502/503/504 without Discord's JSON error. Worth waiting out. A DiscordAPIError (Discord
 * answered 4xx: missing permissions, unknown role, a limit) is Discord's verdict and is not.
 */
export function isDiscordUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof DiscordAPIError) return false;
    if (current instanceof HTTPError) return UNREACHABLE_STATUSES.has(current.status);
    // discord.js aborts a request that outlives its `timeout`.
    if (current.name === 'AbortError' || current.name === 'TimeoutError') return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}

export function fetchGuildRoles(client: Client, guildId: string): Promise<APIRole[]> {
  return discordApi(client).guilds.getRoles(guildId);
}

export function fetchMember(client: Client, guildId: string, userId: string): Promise<APIGuildMember> {
  return discordApi(client).guilds.getMember(guildId, userId);
}

/** A message as Discord has it now, or null when it was deleted. */
export async function fetchMessageOrNull(
  client: Client,
  channelId: string,
  messageId: string,
): Promise<APIMessage | null> {
  try {
    return await discordApi(client).channels.getMessage(channelId, messageId);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMessage)) return null;
    throw error;
  }
}

/** Position of the highest role a member holds (0 = only @everyone). */
export function highestRolePosition(roles: readonly APIRole[], memberRoleIds: readonly string[]): number {
  let highest = 0;
  for (const role of roles) {
    if (memberRoleIds.includes(role.id) && role.position > highest) highest = role.position;
  }
  return highest;
}

/**
 * A member's avatar (their server avatar first) as PNG bytes from Discord's CDN at `cdnBase`,
 * or null when they have none, the CDN is slower than `timeoutMs` or answers an error. The CDN
 * needs no token: this is the one Discord read that is not REST.
 */
export async function fetchAvatarPng(
  cdnBase: string,
  who: { userId: string; guildId: string; userAvatar: string | null; memberAvatar: string | null },
  timeoutMs: number,
): Promise<Buffer | null> {
  const url = who.memberAvatar
    ? `${cdnBase}/guilds/${who.guildId}/users/${who.userId}/avatars/${who.memberAvatar}.png?size=256`
    : who.userAvatar
      ? `${cdnBase}/avatars/${who.userId}/${who.userAvatar}.png?size=256`
      : null;
  if (!url) return null;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok ? Buffer.from(await res.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

/**
 * Publishes the Linked Roles metadata records, only when Discord's differ (a restart puts
 * nothing when they match). Answers whether it wrote.
 */
export async function publishRoleConnectionMetadata(
  client: Client,
  applicationId: string,
  records: RESTPutAPIApplicationRoleConnectionMetadataJSONBody,
): Promise<boolean> {
  const api = discordApi(client);
  const current = await api.roleConnections.getMetadataRecords(applicationId);
  const shape = (list: typeof records) =>
    JSON.stringify(list.map((r) => [r.type, r.key, r.name, r.description]).sort());
  if (shape(current) === shape(records)) return false;
  await api.roleConnections.updateMetadataRecords(applicationId, records);
  return true;
}

/**
 * A linked member's own API, authorized with their Bearer token (never the bot token): Discord
 * counts its rate limits per user, and this REST keeps that user's buckets (a 429 is waited out).
 */
export function memberApi(config: Pick<WorkerConfig, 'discordApiBase'>, accessToken: string): API {
  return new API(new REST({ api: config.discordApiBase, authPrefix: 'Bearer' }).setToken(accessToken));
}

/** Trades a linked member's refresh token at Discord's token endpoint (client id and secret, no bot token). */
export function refreshMemberToken(
  config: Pick<WorkerConfig, 'discordApiBase'>,
  client: { id: string; secret: string },
  refreshToken: string,
): Promise<RESTPostOAuth2AccessTokenResult> {
  return new API(new REST({ api: config.discordApiBase })).oauth2.refreshToken({
    client_id: client.id,
    client_secret: client.secret,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
}
