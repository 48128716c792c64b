import { Guild, MESSAGES, userGuildsCacheKey } from '@spacecadet/contract';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { ApiError, sessionExpired } from '../errors.ts';
import { type DiscordClient, DiscordError, type DiscordPartialGuild } from './discord.ts';
import type { ExpiringMap, ReplicaCache } from './replica-cache.ts';
import type { SessionContext, SessionService } from './sessions.ts';

const ADMINISTRATOR = 0x8n;
const MANAGE_GUILD = 0x20n;

/** Owner, ADMINISTRATOR or MANAGE_GUILD: the users who may configure the bot in a guild. */
export function canManageGuild(guild: Pick<DiscordPartialGuild, 'owner' | 'permissions'>): boolean {
  if (guild.owner) return true;
  let permissions: bigint;
  try {
    permissions = BigInt(guild.permissions);
  } catch {
    return false;
  }
  return (permissions & ADMINISTRATOR) !== 0n || (permissions & MANAGE_GUILD) !== 0n;
}

const CachedGuilds = z.array(Guild);

/**
 * A replica's own copy of a user's list, on top of the shared Redis copy (whose TTL is the
 * documented bound). The worker announces the lists it drops, so a lost right ends here too.
 */
export const GUILD_LIST_CACHE = { ttlMs: 15_000, maxEntries: 20_000 } as const;

interface KnownGuilds {
  guilds: Guild[];
  ids: ReadonlySet<string>;
}

/**
 * The guilds a user may manage, from Discord's /users/@me/guilds with the session's own token,
 * cached per user in Redis for a short TTL so the guard does not call Discord on every request.
 */
export class GuildAccessService {
  private readonly known: ExpiringMap<string, KnownGuilds>;

  constructor(
    private readonly redis: Redis,
    private readonly discord: DiscordClient,
    private readonly sessions: SessionService,
    private readonly ttlSec: number,
    cache: ReplicaCache,
  ) {
    this.known = cache.map<string, KnownGuilds>(GUILD_LIST_CACHE, (map, drop) => {
      if (drop.kind === 'user-guilds') map.delete(drop.id);
      else if (drop.kind === 'guild-lists') map.deleteWhere((list) => list.ids.has(drop.id));
    });
  }

  /**
   * Requests of one session that miss the cache together share one call to Discord, whose
   * /users/@me/guilds rate limit is tight: a dashboard loading several panels at once would
   * otherwise get 429s.
   */
  private readonly inflight = new Map<string, Promise<Guild[]>>();

  async adminGuilds(session: SessionContext): Promise<Guild[]> {
    return (await this.knownGuilds(session)).guilds;
  }

  async canManage(session: SessionContext, guildId: string): Promise<boolean> {
    return (await this.knownGuilds(session)).ids.has(guildId);
  }

  /**
   * `canManage` from this replica's memory alone, without a promise (the guard's fast path);
   * undefined when the list is not in memory.
   */
  canManageKnown(session: SessionContext, guildId: string): boolean | undefined {
    return this.known.get(session.user.id)?.ids.has(guildId);
  }

  /** From memory, else the shared Redis copy, else Discord; kept in memory for the next request. */
  private async knownGuilds(session: SessionContext): Promise<KnownGuilds> {
    const userId = session.user.id;
    const inMemory = this.known.get(userId);
    if (inMemory !== undefined) return inMemory;
    const version = this.known.version();
    const key = userGuildsCacheKey(userId);
    let guilds = await this.readCache(key);
    if (guilds === null) {
      let pending = this.inflight.get(session.id);
      if (pending === undefined) {
        pending = this.loadAdminGuilds(session, key).finally(() => this.inflight.delete(session.id));
        this.inflight.set(session.id, pending);
      }
      guilds = await pending;
    }
    const found: KnownGuilds = { guilds, ids: new Set(guilds.map((guild) => guild.id)) };
    this.known.fill(userId, found, version);
    return found;
  }

  private async loadAdminGuilds(session: SessionContext, key: string): Promise<Guild[]> {
    const guilds = await this.fetchWithRefresh(session);
    const admin = guilds
      .filter(canManageGuild)
      .map((g): Guild => ({ id: g.id, name: g.name, icon: g.icon, owner: g.owner }));
    await this.redis.set(key, JSON.stringify(admin), 'EX', this.ttlSec).catch(() => undefined);
    return admin;
  }

  /** A Redis outage only costs a call to Discord, so cache errors count as a miss. */
  private async readCache(key: string): Promise<Guild[] | null> {
    try {
      const raw = await this.redis.get(key);
      if (raw === null) return null;
      const parsed = CachedGuilds.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  private async fetchWithRefresh(session: SessionContext): Promise<DiscordPartialGuild[]> {
    const token = await this.accessToken(session);
    try {
      return await this.discord.getCurrentUserGuilds(token);
    } catch (error) {
      // Discord refused a token we believed valid: refresh it once and try again.
      if (!(error instanceof DiscordError) || error.status !== 401) throw guildsFetchFailed(error);
    }
    try {
      return await this.discord.getCurrentUserGuilds(await this.accessToken(session, token));
    } catch (error) {
      throw error instanceof ApiError ? error : guildsFetchFailed(error);
    }
  }

  /** A Discord refusing the refresh ends the session; Discord not answering is a 502. */
  private async accessToken(session: SessionContext, refused?: string): Promise<string> {
    let token: string | null;
    try {
      token = await this.sessions.discordAccessToken(session.id, refused === undefined ? {} : { refused });
    } catch (error) {
      if (error instanceof DiscordError) throw guildsFetchFailed(error);
      throw error;
    }
    if (token === null) throw sessionExpired();
    return token;
  }
}

function guildsFetchFailed(cause: unknown): ApiError {
  const error = new ApiError('discord_guilds_fetch_failed', MESSAGES.discordGuildsFetchFailed);
  error.cause = cause;
  return error;
}
