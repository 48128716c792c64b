/** What a route of the table is made of, and the shorthands the per-resource files share. */
import type { z } from 'zod';
import type { ChannelUseSpec } from './channel-permissions.ts';
import { JobAccepted } from './common.ts';
import type { GuildRefSpec } from './guild-refs.ts';
import type { HistoryAction } from './history/actions.ts';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/**
 * public: no session. session: a valid session. guild: a session whose user owns or manages
 * (ADMINISTRATOR or MANAGE_GUILD) the `:guildId` guild. group: a session whose user manages some
 * guild (403 otherwise); the row is then sought among that user's guilds only, so a row of another
 * guild answers the same 404 as a missing one.
 */
export type RouteAuth = 'public' | 'session' | 'guild' | 'group';

export interface RouteDef {
  readonly method: HttpMethod;
  readonly path: string;
  readonly auth: RouteAuth;
  readonly summary: string;
  readonly tag: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /**
   * A body taken in several content types (not only JSON): each type and its schema, as OpenAPI
   * shows them. The route reads and checks the body itself; any other type answers 415.
   */
  readonly bodyMediaTypes?: Readonly<Record<string, z.ZodType>>;
  /** The success body's content type when it is not JSON (a CSV download): what OpenAPI shows. */
  readonly responseMediaType?: string;
  /** Success status -> body schema (`null`: no body). Error statuses are in `errors`. */
  readonly responses: Readonly<Record<number, z.ZodType | null>>;
  /** Answers a redirect (browser navigation), not JSON. */
  readonly redirect?: boolean;
  /** The action needs the bot in the guild (409 bot_not_in_guild otherwise). */
  readonly needsBot?: boolean;
  /** Body ids that must name a channel, role or member of the path's guild (400 otherwise). */
  readonly guildRefs?: GuildRefSpec;
  /**
   * Channel fields (also in `guildRefs`) and what the bot does there: saving one the bot lacks
   * a needed permission in answers 400 naming the permission and the channel.
   */
  readonly channelUses?: ChannelUseSpec;
  /**
   * Every error status this route answers, each with the one error body: what OpenAPI lists.
   * apps/api/test/route-statuses.test.ts provokes each on every route and checks this list is
   * exactly what the API answered. What each means here:
   * 400 input refused (malformed, out of bounds, or not of this server); 401 no session, an
   * expired one, or a refused sign-in code; 403 a server, job or tool of someone else's;
   * 404 no such row (a job, reward role, boost, question, color group); 409 the bot is not in
   * the server, or the change conflicts with what is stored or with Discord; 413 body too large;
   * 415 body not JSON; 429 too many requests; 501 the database lacks the color tables;
   * 502 Discord did not answer; 503 Postgres, Redis or the job queue did not answer.
   */
  readonly errors: readonly ErrorStatus[];
  /**
   * The history action a successful request records (every guild route that changes something
   * has one; `apps/api/test/history-coverage.test.ts` holds it so). The API writes the entry.
   */
  readonly history?: HistoryAction;
}

/** The error statuses the API answers with (a route lists those it can answer in `errors`). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 501 | 502 | 503;

export const none = null;
export const ok = <T extends z.ZodType>(schema: T) => ({ 200: schema }) as const;
/** An action run as a job: answers the job's id, to poll `getJob` with. */
export const accepted = { 202: JobAccepted } as const;
export const noContent = { 204: none } as const;

/** Keeps a route's literal types (paths, statuses, schemas) for the typed client. */
export function route<const R extends RouteDef>(def: R): R {
  return def;
}
