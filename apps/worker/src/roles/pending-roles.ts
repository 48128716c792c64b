import { rolesCreatingKey } from '@spacecadet/contract';
import type { APIRole } from 'discord.js';
import type { Redis } from 'ioredis';
import { DiscordCodes, discordApi, isDiscordError } from '../discord-rest.ts';
import { type JobContext, JobFailure } from '../jobs/types.ts';

/**
 * Marks a role create in flight, in the Redis hash `rolesCreatingKey(feature, guild)`.
 * The mark is set before Discord's create call and removed once the role id is in Postgres; a
 * mark left behind means the process died in between, and the retry adopts the role it finds
 * with the exact name and colour instead of creating a duplicate. Only marked targets adopt,
 * so an admin's own role that happens to share a name is never taken over. Every feature that
 * creates roles (color roles, personality roles) goes through here.
 */
export interface PendingRole {
  name: string;
  color: number;
}

/** What a feature wants a role for: `key` names it stably (`color:12`, `option:40`). */
export interface PendingRoleTarget extends PendingRole {
  key: string;
}

export async function loadPendingRoles(
  redis: Redis,
  feature: string,
  guildId: string,
): Promise<Map<string, PendingRole>> {
  const entries = await redis.hgetall(rolesCreatingKey(feature, guildId));
  const pending = new Map<string, PendingRole>();
  for (const [key, value] of Object.entries(entries)) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        'name' in parsed &&
        'color' in parsed &&
        typeof parsed.name === 'string' &&
        typeof parsed.color === 'number'
      ) {
        pending.set(key, { name: parsed.name, color: parsed.color });
      }
    } catch {
      // A mark we cannot read cannot be matched to a role; it is dropped on the next clear.
    }
  }
  return pending;
}

export async function markRolePending(
  redis: Redis,
  feature: string,
  guildId: string,
  target: PendingRoleTarget,
): Promise<void> {
  const value: PendingRole = { name: target.name, color: target.color };
  await redis.hset(rolesCreatingKey(feature, guildId), target.key, JSON.stringify(value));
}

export async function clearPendingRole(
  redis: Redis,
  feature: string,
  guildId: string,
  targetKey?: string,
): Promise<void> {
  if (targetKey === undefined) await redis.del(rolesCreatingKey(feature, guildId));
  else await redis.hdel(rolesCreatingKey(feature, guildId), targetKey);
}

/**
 * A role a killed run created but never recorded: exact name and colour, not managed by an
 * integration and not already recorded for another palette entry. The newest one wins.
 */
export function findOrphanRole<R extends Pick<APIRole, 'id' | 'name' | 'color' | 'managed'>>(
  roles: readonly R[],
  target: PendingRole,
  claimed: ReadonlySet<string>,
): R | undefined {
  return roles
    .filter(
      (role) =>
        role.name === target.name && role.color === target.color && !role.managed && !claimed.has(role.id),
    )
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))[0];
}

/** Discord's limit of roles per guild, @everyone included. */
export const GUILD_ROLE_CAP = 250;

/**
 * Before a feature creates the roles it misses: each missing target whose create was marked in
 * flight (`pending`, by its key) and whose role Discord has (`findOrphanRole`) is adopted, and
 * becomes `claimed`. Returns the adoptions by target key. Then, before the first create, the
 * job fails in words for the admin if the rest would pass Discord's cap: `need` says who needs
 * them ("personality roles need"), `advice` what to do.
 */
export function adoptOrphansWithinCap<R extends Pick<APIRole, 'id' | 'name' | 'color' | 'managed'>>(
  input: {
    missing: readonly PendingRoleTarget[];
    pending: ReadonlyMap<string, PendingRole>;
    /** Every role of the guild (read only when a mark is found). */
    roles: () => readonly R[];
    claimed: Set<string>;
    /** How many roles the guild has now. */
    count: number;
  },
  words: { need: string; advice: string },
): Map<string, R> {
  const adoptions = new Map<string, R>();
  for (const target of input.missing) {
    if (!input.pending.has(target.key)) continue;
    const orphan = findOrphanRole(input.roles(), target, input.claimed);
    if (orphan) {
      adoptions.set(target.key, orphan);
      input.claimed.add(orphan.id);
    }
  }
  const toCreate = input.missing.length - adoptions.size;
  if (input.count + toCreate > GUILD_ROLE_CAP) {
    throw new JobFailure(
      'role_cap_reached',
      `This server has ${input.count} roles and ${words.need} ${toCreate} more, above Discord's limit of ${GUILD_ROLE_CAP}. ${words.advice}`,
    );
  }
  return adoptions;
}

/**
 * Creates a feature's role with the in-flight mark around it (see above), so a retry after a
 * crash adopts it. Discord's refusals a retry cannot fix fail the job in words for the admin;
 * `purpose` names the roles ("color roles").
 */
export async function createMarkedRole(
  context: JobContext,
  feature: string,
  target: PendingRoleTarget,
  purpose: string,
): Promise<string> {
  const { client, redis } = context.deps;
  const guildId = context.payload.guild_id;
  await markRolePending(redis, feature, guildId, target);
  try {
    const role = await discordApi(client).guilds.createRole(
      guildId,
      { name: target.name, color: target.color, permissions: '0', hoist: false, mentionable: false },
      { reason: `Space Cadet: ${purpose}` },
    );
    return role.id;
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.MaximumNumberOfGuildRolesReached)) {
      throw new JobFailure(
        'role_cap_reached',
        `Discord's limit of ${GUILD_ROLE_CAP} roles was reached while creating "${target.name}". Delete some roles, then try again.`,
      );
    }
    if (isDiscordError(error, DiscordCodes.MissingPermissions)) {
      throw new JobFailure('forbidden', `I need the Manage Roles permission to create ${purpose}.`);
    }
    throw error;
  }
}
