/** What a route of the table is made of, and the shorthands the per-resource files share. */
import type { z } from 'zod';
import type { ChannelUseSpec } from '../channel-permissions.ts';
import { JobAccepted } from '../common.ts';
import type { GuildRefSpec } from '../guild-refs.ts';

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
  /** Success status -> body schema (`null`: no body). Error statuses are added by `errorResponses`. */
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
   * Error statuses this route answers besides those of its kind (`errorResponses`), e.g. 401
   * for a refused sign-in code or 409 for a reward level already taken. Documented in OpenAPI.
   */
  readonly errors?: readonly number[];
}

export const none = null;
export const ok = <T extends z.ZodType>(schema: T) => ({ 200: schema }) as const;
/** An action run as a job: answers the job's id, to poll `getJob` with. */
export const accepted = { 202: JobAccepted } as const;
export const noContent = { 204: none } as const;

/** Keeps a route's literal types (paths, statuses, schemas) for the typed client. */
export function route<const R extends RouteDef>(def: R): R {
  return def;
}
