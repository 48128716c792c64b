import { CONFIG_MAX_BYTES, configByteLength } from '@spacecadet/core';
import { guildConfigs } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import { ApiError } from '../errors.ts';
import type { AppServices } from './container.ts';

/**
 * A guild's raw JSON config, read and written for its PUT route and the undo of it
 * (history's `restore-config.ts`), and the size of each replica's copy of it.
 */

/** A replica's copy of a guild's config: every replica drops it when a write is announced. */
export const CONFIG_CACHE = { ttlMs: 60_000, maxEntries: 10_000 } as const;

/** The stored config data of a guild, or null when it has none. */
export async function readGuildConfigData(
  services: Pick<AppServices, 'db'>,
  guildId: string,
): Promise<Record<string, unknown> | null> {
  const [row] = await services.db
    .select({ data: guildConfigs.data })
    .from(guildConfigs)
    .where(eq(guildConfigs.guildId, guildId))
    .limit(1);
  return row ? (row.data as Record<string, unknown>) : null;
}

/**
 * Writes a guild's config (null: the guild has none, the row goes) and tells every replica to
 * drop its copy: the PUT route and its undo.
 */
export async function writeGuildConfig(
  services: Pick<AppServices, 'db' | 'replicaCache'>,
  guildId: string,
  data: Record<string, unknown> | null,
  userId: string,
): Promise<{ updatedBy: string | null; updatedAt: Date | null }> {
  if (data !== null && configByteLength(data) > CONFIG_MAX_BYTES) {
    throw new ApiError('payload_too_large', 'Config is larger than 64 KiB');
  }
  const { db, replicaCache } = services;
  if (data === null) {
    await db.delete(guildConfigs).where(eq(guildConfigs.guildId, guildId));
    await replicaCache.announce({ kind: 'config', id: guildId });
    return { updatedBy: null, updatedAt: null };
  }
  const values = { data, updatedBy: userId, updatedAt: new Date() };
  const [row] = await db
    .insert(guildConfigs)
    .values({ guildId, ...values })
    .onConflictDoUpdate({ target: guildConfigs.guildId, set: values })
    .returning();
  if (!row) throw new Error('Config upsert returned no row');
  await replicaCache.announce({ kind: 'config', id: guildId });
  return { updatedBy: row.updatedBy, updatedAt: row.updatedAt };
}
