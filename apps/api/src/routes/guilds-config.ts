import { type GuildConfig, routes } from '@spacecadet/contract';
import { CONFIG_MAX_BYTES, configByteLength } from '@spacecadet/core';
import { guildConfigs } from '@spacecadet/db';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import type { AppServices } from '../services/container.ts';
import { defineRoute } from './define.ts';

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

/** The raw JSON config of a guild. */
export function registerGuildConfigRoutes(app: FastifyInstance): void {
  const { db, replicaCache } = app.services;
  const configs = replicaCache.map<string, GuildConfig>(CONFIG_CACHE, (map, drop) => {
    if (drop.kind === 'config') map.delete(drop.id);
  });
  const configByGuild = db
    .select()
    .from(guildConfigs)
    .where(eq(guildConfigs.guildId, sql.placeholder('guildId')))
    .limit(1)
    .prepare('guild_config_by_guild');

  defineRoute(app, routes.getConfig, async ({ params }) => {
    const known = configs.get(params.guildId);
    if (known !== undefined) return known;
    const version = configs.version();
    const [row] = await configByGuild.execute({ guildId: params.guildId });
    const stored: GuildConfig = row
      ? { data: row.data, updated_by: row.updatedBy, updated_at: row.updatedAt.toISOString() }
      : { data: {}, updated_by: null, updated_at: null };
    configs.fill(params.guildId, stored, version);
    return stored;
  });

  defineRoute(app, routes.putConfig, async ({ params, body, session, history }) => {
    const before = await readGuildConfigData(app.services, params.guildId);
    const row = await writeGuildConfig(app.services, params.guildId, body, session.user.id);
    history.state('config', before, body);
    return { updated_by: row.updatedBy, updated_at: (row.updatedAt ?? new Date()).toISOString() };
  });
}
