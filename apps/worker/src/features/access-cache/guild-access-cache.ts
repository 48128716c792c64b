import { prefixedRedisKey, userGuildsCacheKey } from '@spacecadet/contract';
import { Events, PermissionFlagsBits, type PermissionsBitField } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';

/** The rights that let a user configure the bot in a guild (besides owning it). */
const MANAGE_RIGHTS = PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild;

/**
 * The API caches each user's manageable guild list in Redis for a short TTL. The worker sees
 * member, role and owner changes live, so it deletes the lists they may have made wrong: a
 * manager who loses Manage Server loses dashboard access within seconds, not at the TTL.
 *
 * - a member's roles changed (guildMemberUpdate; members are not cached, so the event carries a
 *   partial old member and every update counts) or they left (guildMemberRemove): their list;
 * - the owner changed (guildUpdate): the old and the new owner's lists;
 * - a role gained or lost Administrator / Manage Server (guildRoleUpdate), or such a role was
 *   deleted (guildRoleDelete): its holders are not known without fetching every member, so every
 *   cached list that names the guild (the only lists that can wrongly grant access to it).
 */
export function trackGuildAccessCache(deps: WorkerDeps): void {
  const { client, logger } = deps;
  const run = (what: string, guildId: string, work: () => Promise<number>) => {
    work().then(
      (dropped) => {
        if (dropped > 0) logger.info({ guildId, what, dropped }, 'dropped cached guild lists');
      },
      (error: unknown) =>
        logger.warn({ ...errorFields(error), guildId, what }, 'could not drop cached guild lists'),
    );
  };

  client.on(Events.GuildMemberUpdate, (_old, member) =>
    run('member updated', member.guild.id, () => dropUserGuildLists(deps, [member.id])),
  );
  client.on(Events.GuildMemberRemove, (member) =>
    run('member left', member.guild.id, () => dropUserGuildLists(deps, [member.id])),
  );
  client.on(Events.GuildUpdate, (old, guild) => {
    if (old.ownerId === guild.ownerId) return;
    run('owner changed', guild.id, () => dropUserGuildLists(deps, [old.ownerId, guild.ownerId]));
  });
  client.on(Events.GuildRoleUpdate, (old, role) => {
    if (manageRights(old.permissions) === manageRights(role.permissions)) return;
    run('role rights changed', role.guild.id, () => dropGuildListsNaming(deps, role.guild.id));
  });
  client.on(Events.GuildRoleDelete, (role) => {
    if (manageRights(role.permissions) === 0n) return;
    run('role deleted', role.guild.id, () => dropGuildListsNaming(deps, role.guild.id));
  });
}

function manageRights(permissions: Readonly<PermissionsBitField>): bigint {
  return permissions.bitfield & MANAGE_RIGHTS;
}

/** Deletes these users' cached lists; returns how many existed. */
export async function dropUserGuildLists(deps: WorkerDeps, userIds: readonly string[]): Promise<number> {
  const keys = [...new Set(userIds)].map((id) =>
    prefixedRedisKey(deps.config.redisPrefix, userGuildsCacheKey(id)),
  );
  return keys.length === 0 ? 0 : deps.redis.del(...keys);
}

/**
 * Deletes every cached list that names `guildId` (or cannot be read). Lists exist only for users
 * active on the dashboard within the TTL, so the scan stays small.
 */
export async function dropGuildListsNaming(deps: WorkerDeps, guildId: string): Promise<number> {
  const { redis, config } = deps;
  const pattern = prefixedRedisKey(config.redisPrefix, userGuildsCacheKey('*'));
  let cursor = '0';
  let dropped = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length === 0) continue;
    const lists = await redis.mget(...keys);
    const stale = keys.filter((_key, index) => namesGuild(lists[index] ?? null, guildId));
    if (stale.length > 0) dropped += await redis.del(...stale);
  } while (cursor !== '0');
  return dropped;
}

/** The API stores a JSON array of guilds (`{id, name, icon, owner}`); anything else is dropped too. */
function namesGuild(list: string | null, guildId: string): boolean {
  if (list === null) return false;
  try {
    const guilds: unknown = JSON.parse(list);
    if (!Array.isArray(guilds)) return true;
    return guilds.some((guild: unknown) => (guild as { id?: unknown } | null)?.id === guildId);
  } catch {
    return true;
  }
}
