import { colorRolesCreatingKey } from '@spacecadet/contract';
import type { Redis } from 'ioredis';
import type { RoleTarget } from './role-targets.ts';

/**
 * Marks a role create in flight, in the Redis hash `colorRolesCreatingKey(guild)`.
 * The mark is set before Discord's create call and removed once the role id is in Postgres; a
 * mark left behind means the process died in between, and the retry adopts the role it finds
 * with the exact name and colour instead of creating a duplicate. Only marked targets adopt,
 * so an admin's own role that happens to share a name is never taken over.
 */
export interface PendingRole {
  name: string;
  color: number;
}

export async function loadPendingRoles(redis: Redis, guildId: string): Promise<Map<string, PendingRole>> {
  const entries = await redis.hgetall(colorRolesCreatingKey(guildId));
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

export async function markRolePending(redis: Redis, guildId: string, target: RoleTarget): Promise<void> {
  const value: PendingRole = { name: target.name, color: target.color };
  await redis.hset(colorRolesCreatingKey(guildId), target.key, JSON.stringify(value));
}

export async function clearPendingRole(redis: Redis, guildId: string, targetKey?: string): Promise<void> {
  if (targetKey === undefined) await redis.del(colorRolesCreatingKey(guildId));
  else await redis.hdel(colorRolesCreatingKey(guildId), targetKey);
}
