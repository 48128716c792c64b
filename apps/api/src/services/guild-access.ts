import { Guild, MESSAGES, userGuildsCacheKey } from '@spacecadet/contract';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { ApiError, sessionExpired } from '../errors.ts';
import { type DiscordClient, DiscordError, type DiscordPartialGuild } from './discord.ts';
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
 * The guilds a user may manage, from Discord's /users/@me/guilds with the session's own token,
 * cached per user in Redis for a short TTL so the guard does not call Discord on every request.
 */
export class GuildAccessService {
  constructor(
    private readonly redis: Redis,
    private readonly discord: DiscordClient,
    private readonly sessions: SessionService,
    private readonly ttlSec: number,
  ) {}

  /**
   * Requests of one session that miss the cache together share one call to Discord, whose
   * /users/@me/guilds rate limit is tight: a dashboard loading several panels at once would
   * otherwise get 429s.
   */
  private readonly inflight = new Map<string, Promise<Guild[]>>();

  async adminGuilds(session: SessionContext): Promise<Guild[]> {
    const key = userGuildsCacheKey(session.user.id);
    const cached = await this.readCache(key);
    if (cached) return cached;

    const pending = this.inflight.get(session.id);
    if (pending) return pending;
    const loading = this.loadAdminGuilds(session, key).finally(() => this.inflight.delete(session.id));
    this.inflight.set(session.id, loading);
    return loading;
  }

  private async loadAdminGuilds(session: SessionContext, key: string): Promise<Guild[]> {
    const guilds = await this.fetchWithRefresh(session);
    const admin = guilds
      .filter(canManageGuild)
      .map((g): Guild => ({ id: g.id, name: g.name, icon: g.icon, owner: g.owner }));
    await this.redis.set(key, JSON.stringify(admin), 'EX', this.ttlSec).catch(() => undefined);
    return admin;
  }

  async canManage(session: SessionContext, guildId: string): Promise<boolean> {
    const guilds = await this.adminGuilds(session);
    return guilds.some((guild) => guild.id === guildId);
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
