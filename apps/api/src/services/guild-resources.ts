import {
  type Channel,
  type ChannelUseSpec,
  collectGuildRefs,
  everyoneRefMessage,
  foreignRefMessage,
  type GuildRef,
  type GuildRefSpec,
  type GuildRole,
  guildChannelsCacheKey,
  guildEmojisCacheKey,
  guildMemberSearchCacheKey,
  guildMembershipCacheKey,
  guildProfileCacheKey,
  guildRolesCacheKey,
  isSnowflake,
  MESSAGES,
  type MemberSummary,
} from '@spacecadet/contract';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { ApiError } from '../errors.ts';
import { assertBotCanUseChannels } from './channel-permissions.ts';
import type { DiscordClient, DiscordMember, DiscordRole } from './discord.ts';
import {
  type CachedChannel,
  CachedChannels,
  CachedEmojiIds,
  CachedMembers,
  CachedProfile,
  CachedRoles,
  discordFailure,
  listedChannels,
  memberSummary,
  parseCachedJson,
  pickableRoles,
  THREAD_TYPES,
  textAndVoiceChannels,
  textChannels,
} from './guild-resource-answers.ts';

/** How long a membership answer for the members-only leaderboard is kept (`isMemberRecently`). */
const MEMBERSHIP_CACHE_SEC = 60;
/** A member search is cached for less time than channels and roles: people join and rename. */
const MEMBER_SEARCH_TTL_SEC = 30;

/**
 * A guild's text channels, roles and members as the bot sees them, read with the bot's token
 * and cached briefly per guild. It answers the channel picker and checks that every id a
 * request body names belongs to the guild in the path.
 */
export class GuildResources {
  constructor(
    private readonly redis: Redis,
    private readonly discord: DiscordClient,
    private readonly ttlSec: number,
  ) {}

  /** The guild's text channels; `fresh` skips the cache (an id just created may be missing). */
  async textChannels(guildId: string, fresh = false): Promise<Channel[]> {
    return textChannels(await this.channels(guildId, fresh));
  }

  /** The picker's channels: the text ones, or (`any`) the voice ones too. */
  async pickerChannels(guildId: string, kind: 'text' | 'any'): Promise<Channel[]> {
    return (kind === 'any' ? textAndVoiceChannels : textChannels)(await this.channels(guildId, false));
  }

  private channels(guildId: string, fresh: boolean): Promise<CachedChannel[]> {
    return this.cached(guildChannelsCacheKey(guildId), CachedChannels, fresh, async () => {
      try {
        return listedChannels(await this.discord.getGuildChannels(guildId));
      } catch (error) {
        throw discordFailure(error, 'channels');
      }
    });
  }

  /** The guild's roles but @everyone, highest first: the role pickers' list. */
  roles(guildId: string, fresh = false): Promise<GuildRole[]> {
    return this.cached(guildRolesCacheKey(guildId), CachedRoles, fresh, async () => {
      try {
        return pickableRoles(guildId, await this.discord.getGuildRoles(guildId));
      } catch (error) {
        throw discordFailure(error, 'roles');
      }
    });
  }

  /** Ids of the guild's custom emojis; `fresh` skips the cache (one uploaded a moment ago). */
  customEmojiIds(guildId: string, fresh = false): Promise<string[]> {
    return this.cached(guildEmojisCacheKey(guildId), CachedEmojiIds, fresh, async () => {
      try {
        return (await this.discord.getGuildEmojis(guildId)).map((emoji) => emoji.id);
      } catch (error) {
        throw discordFailure(error, 'emojis');
      }
    });
  }

  /**
   * The guild's roles and the bot's highest one (null: it holds none but @everyone), read
   * fresh: Discord lets the bot give only roles below its highest, and an admin who just moved
   * the bot's role and saves again must not be answered from a cache.
   */
  async botRoleHierarchy(guildId: string): Promise<{ roles: DiscordRole[]; highest: DiscordRole | null }> {
    const { roles, held } = await this.rolesWithBots(guildId, 'roles');
    let highest: DiscordRole | null = null;
    for (const role of roles) {
      if (role.id !== guildId && held.has(role.id) && (highest === null || role.position > highest.position))
        highest = role;
    }
    return { roles, highest };
  }

  /** Ids of the guild's roles a member can be given: every role but @everyone (the guild's id). */
  async roleIds(guildId: string, fresh = false): Promise<string[]> {
    return (await this.roles(guildId, fresh)).map((role) => role.id);
  }

  /**
   * Members whose name starts with `query`, cached briefly per guild, query and limit. A query
   * that is a member's id answers that member (Discord's search matches names only).
   */
  searchMembers(guildId: string, query: string, limit: number): Promise<MemberSummary[]> {
    const key = guildMemberSearchCacheKey(guildId, query, limit);
    return this.cached(
      key,
      CachedMembers,
      false,
      async () => {
        try {
          if (isSnowflake(query)) {
            const member = await this.discord.getGuildMember(guildId, query);
            if (member) return [memberSummary(member)];
          }
          return (await this.discord.searchGuildMembers(guildId, query, limit)).map(memberSummary);
        } catch (error) {
          throw discordFailure(error, 'members');
        }
      },
      MEMBER_SEARCH_TTL_SEC,
    );
  }

  /**
   * The bot's server-wide permissions integer: @everyone's and its roles' permissions together
   * (Discord's base permissions; channel overwrites are not part of it). Read fresh, not cached:
   * the page asks after the admin changed the bot's role or invited it again.
   */
  async botPermissions(guildId: string): Promise<string> {
    let bits = 0n;
    for (const role of await this.botRoles(guildId, 'the bot’s permissions'))
      bits |= BigInt(role.permissions);
    return bits.toString();
  }

  /** The roles the bot holds in the server, @everyone's among them, read fresh. */
  async botRoles(guildId: string, what = 'the bot’s roles'): Promise<DiscordRole[]> {
    const { roles, held } = await this.rolesWithBots(guildId, what);
    return roles.filter((role) => held.has(role.id));
  }

  /** The guild's roles and the ids of those the bot holds (@everyone's too), read fresh. */
  private async rolesWithBots(guildId: string, what: string) {
    let roles: DiscordRole[];
    let member: DiscordMember | null;
    try {
      [roles, member] = await Promise.all([
        this.discord.getGuildRoles(guildId),
        this.discord.getGuildMember(guildId, this.discord.botUserId),
      ]);
    } catch (error) {
      throw discordFailure(error, what);
    }
    if (!member) throw new ApiError('bot_not_in_guild', MESSAGES.botNotInGuild);
    return { roles, held: new Set([guildId, ...member.roles]) };
  }

  /** The guild's name and icon as the bot sees them (the public leaderboard's header). */
  guildProfile(guildId: string): Promise<{ id: string; name: string; icon: string | null }> {
    return this.cached(guildProfileCacheKey(guildId), CachedProfile, false, async () => {
      try {
        const guild = await this.discord.getGuild(guildId);
        return { id: guild.id, name: guild.name, icon: guild.icon };
      } catch (error) {
        throw discordFailure(error, 'the server');
      }
    });
  }

  /**
   * `isMember` for a page a member keeps browsing (the members-only leaderboard): the answer is
   * kept for a minute, so paging costs Discord one call a minute per reader, not one a request.
   * Admin actions on a member use `isMember`, which always asks Discord.
   */
  isMemberRecently(guildId: string, userId: string): Promise<boolean> {
    return this.cached(
      guildMembershipCacheKey(guildId, userId),
      z.boolean(),
      false,
      () => this.isMember(guildId, userId),
      MEMBERSHIP_CACHE_SEC,
    );
  }

  async isMember(guildId: string, userId: string): Promise<boolean> {
    try {
      return await this.discord.isGuildMember(guildId, userId);
    } catch (error) {
      throw discordFailure(error, 'members');
    }
  }

  /**
   * 400 naming the first field whose id is not the guild's own channel, role or member. A miss
   * in the cache is read again from Discord before it is refused, so a channel or role created
   * a moment ago is accepted.
   */
  async assertOwned(guildId: string, body: unknown, spec: GuildRefSpec): Promise<void> {
    const refs = collectGuildRefs(body, spec);
    if (refs.length === 0) return;
    // @everyone is the guild's own, but no one can be given it: said as such, not as foreign.
    const everyone = refs.find((ref) => ref.kind === 'role' && ref.id === guildId);
    if (everyone) throw new ApiError('invalid_input', everyoneRefMessage(everyone));
    const cachedMiss = await this.firstForeign(guildId, refs, false);
    if (cachedMiss === null) return;
    // A member is always asked of Discord; channels and roles may be newer than the cache.
    const miss = cachedMiss.kind === 'member' ? cachedMiss : await this.firstForeign(guildId, refs, true);
    if (miss) throw new ApiError('invalid_input', foreignRefMessage(miss));
  }

  /**
   * 400 naming what the bot lacks in a channel the body saves (View Channel, Send Messages,
   * Embed Links, Read Message History, as `uses` says), computed as Discord does from the
   * guild's roles, the bot's roles and the channel's overwrites, read fresh from Discord: an
   * admin who just fixed the permissions and saves again is not answered from a cache.
   */
  assertBotCanUse(guildId: string, body: unknown, uses: ChannelUseSpec): Promise<void> {
    return assertBotCanUseChannels(this.discord, guildId, body, uses);
  }

  private async firstForeign(guildId: string, refs: GuildRef[], fresh: boolean): Promise<GuildRef | null> {
    const kinds = new Set(refs.map((ref) => ref.kind));
    const [channels, roles] = await Promise.all([
      kinds.has('channel') || kinds.has('any_channel') ? this.textChannels(guildId, fresh) : [],
      kinds.has('role') ? this.roleIds(guildId, fresh) : [],
    ]);
    const channelIds = new Set(channels.map((channel) => channel.id));
    const roleIds = new Set(roles);
    // Channels a role is let in (View Channel) may be voice channels or categories too: read
    // once a cached text channel missed (a miss always comes back for the fresh pass).
    const anyChannelIds = new Set(channelIds);
    if (fresh && kinds.has('any_channel')) {
      for (const id of await this.viewableChannelIds(guildId)) anyChannelIds.add(id);
    }
    for (const ref of refs) {
      if (ref.kind === 'channel' && !channelIds.has(ref.id)) return ref;
      if (ref.kind === 'any_channel' && !anyChannelIds.has(ref.id)) return ref;
      if (ref.kind === 'role' && !roleIds.has(ref.id)) return ref;
      if (ref.kind === 'member' && !(await this.isMember(guildId, ref.id))) return ref;
    }
    return null;
  }

  /** Every channel of the guild a role can be let in (threads follow their channel's). */
  private async viewableChannelIds(guildId: string): Promise<string[]> {
    try {
      const channels = await this.discord.getGuildChannels(guildId);
      return channels.filter((channel) => !THREAD_TYPES.has(channel.type)).map((channel) => channel.id);
    } catch (error) {
      throw discordFailure(error, 'channels');
    }
  }

  /** A Redis outage costs a call to Discord, so cache errors count as a miss. */
  private async cached<T>(
    key: string,
    schema: z.ZodType<T>,
    fresh: boolean,
    load: () => Promise<T>,
    ttlSec = this.ttlSec,
  ): Promise<T> {
    if (!fresh) {
      const raw = await this.redis.get(key).catch(() => null);
      const parsed = raw === null ? null : schema.safeParse(parseCachedJson(raw));
      if (parsed?.success) return parsed.data;
    }
    const value = await load();
    await this.redis
      .set(key, JSON.stringify(value), 'EX', Math.min(ttlSec, this.ttlSec))
      .catch(() => undefined);
    return value;
  }
}
