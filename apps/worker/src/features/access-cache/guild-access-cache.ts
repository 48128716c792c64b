import {
  type ApiCacheDrop,
  apiCacheChannel,
  encodeApiCacheDrop,
  guildMembershipCacheKey,
  userGuildsCacheKey,
} from '@spacecadet/contract';
import { keyPrefixOf, scanAllNodes } from '@spacecadet/runtime/redis-client';
import { Events, PermissionFlagsBits, type PermissionsBitField } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { onGateway } from '../feature.ts';

/** The rights that let a user configure the bot in a guild (besides owning it). */
const MANAGE_RIGHTS = PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild;

/**
 * The API caches each user's manageable guild list in Redis for a short TTL (and each API
 * replica in memory). The worker sees member, role and owner changes live, so it deletes the
 * lists they may have made wrong and announces it on the API cache channel: a manager who loses
 * Manage Server loses dashboard access within seconds, not at the TTL.
 *
 * - a member's roles changed (guildMemberUpdate; members are not cached, so the event carries a
 *   partial old member and every update counts) or they left (guildMemberRemove): their list;
 * - a member left or joined (guildMemberRemove, guildMemberAdd): the API's answer to "is this user
 *   a member?" (the members-only leaderboard), so leaving ends that access at once rather than
 *   when the answer expires, and joining opens it at once;
 * - the owner changed (guildUpdate): the old and the new owner's lists;
 * - a role gained or lost Administrator / Manage Server (guildRoleUpdate), or such a role was
 *   deleted (guildRoleDelete): its holders are not known without fetching every member, so every
 *   cached list that names the guild (the only lists that can wrongly grant access to it).
 */
export const guildAccessCacheEvents = [
  onGateway(Events.GuildMemberUpdate, "drop an updated member's guild list", (deps, _old, member) =>
    dropLogged(deps, 'member updated', member.guild.id, () => dropUserGuildLists(deps, [member.id])),
  ),
  onGateway(Events.GuildMemberRemove, "drop a leaver's guild list and membership", (deps, member) =>
    dropLogged(deps, 'member left', member.guild.id, async () => {
      const [membership, lists] = await Promise.all([
        dropMembership(deps, member.guild.id, member.id),
        dropUserGuildLists(deps, [member.id]),
      ]);
      return membership + lists;
    }),
  ),
  onGateway(Events.GuildMemberAdd, "drop a joiner's membership", (deps, member) =>
    dropLogged(deps, 'member joined', member.guild.id, () =>
      dropMembership(deps, member.guild.id, member.id),
    ),
  ),
  onGateway(Events.GuildUpdate, "drop the owners' guild lists", (deps, old, guild) => {
    if (old.ownerId === guild.ownerId) return;
    return dropLogged(deps, 'owner changed', guild.id, () =>
      dropUserGuildLists(deps, [old.ownerId, guild.ownerId]),
    );
  }),
  onGateway(Events.GuildRoleUpdate, 'drop guild lists after a rights change', (deps, old, role) => {
    if (manageRights(old.permissions) === manageRights(role.permissions)) return;
    return dropLogged(deps, 'role rights changed', role.guild.id, () =>
      dropGuildListsNaming(deps, role.guild.id),
    );
  }),
  onGateway(Events.GuildRoleDelete, 'drop guild lists after a manager role was deleted', (deps, role) => {
    if (manageRights(role.permissions) === 0n) return;
    return dropLogged(deps, 'role deleted', role.guild.id, () => dropGuildListsNaming(deps, role.guild.id));
  }),
];

async function dropLogged(deps: WorkerDeps, what: string, guildId: string, drop: () => Promise<number>) {
  const dropped = await drop();
  if (dropped > 0) deps.logger.info({ guildId, what, dropped }, 'dropped cached guild lists');
}

function manageRights(permissions: Readonly<PermissionsBitField>): bigint {
  return permissions.bitfield & MANAGE_RIGHTS;
}

/** Deletes these users' cached lists (and every API replica's copy); returns how many existed in Redis. */
export async function dropUserGuildLists(deps: WorkerDeps, userIds: readonly string[]): Promise<number> {
  const users = [...new Set(userIds)];
  if (users.length === 0) return 0;
  // One DEL per user: on a Redis Cluster their keys lie in different slots.
  const counts = await Promise.all(users.map((id) => deps.redis.del(userGuildsCacheKey(id))));
  const dropped = counts.reduce((sum, one) => sum + one, 0);
  await announce(
    deps,
    users.map((id) => ({ kind: 'user-guilds', id })),
  );
  return dropped;
}

/**
 * Deletes the API's remembered membership of `userId` in `guildId` (kept in Redis only, so no
 * replica holds a copy to announce); 1 when there was one.
 */
function dropMembership(deps: WorkerDeps, guildId: string, userId: string): Promise<number> {
  return deps.redis.del(guildMembershipCacheKey(guildId, userId));
}

/** Tells every API replica to drop its in-memory copies too (they may hold one Redis no longer does). */
async function announce(deps: WorkerDeps, drops: readonly ApiCacheDrop[]): Promise<void> {
  const channel = apiCacheChannel(deps.config.redisPrefix);
  await Promise.all(drops.map((drop) => deps.redis.publish(channel, encodeApiCacheDrop(drop))));
}

/**
 * Deletes every cached list that names `guildId` (or cannot be read). Lists exist only for users
 * active on the dashboard within the TTL, so the scan stays small.
 */
export async function dropGuildListsNaming(deps: WorkerDeps, guildId: string): Promise<number> {
  const { redis } = deps;
  // SCAN matches and returns whole keys, which ioredis' keyPrefix does not touch: add it to the
  // pattern and take it off the results before GET and DEL add it again. On a cluster every
  // master is scanned, and each key read and deleted alone (the keys lie in many slots).
  const keyPrefix = keyPrefixOf(redis);
  let dropped = 0;
  await scanAllNodes(redis, `${keyPrefix}${userGuildsCacheKey('*')}`, 500, async (found) => {
    const keys = found.map((key) => key.slice(keyPrefix.length));
    const lists = await Promise.all(keys.map((key) => redis.get(key)));
    const stale = keys.filter((_key, index) => namesGuild(lists[index] ?? null, guildId));
    for (const count of await Promise.all(stale.map((key) => redis.del(key)))) dropped += count;
  });
  await announce(deps, [{ kind: 'guild-lists', id: guildId }]);
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
