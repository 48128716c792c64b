import { type GuildConfig, routes } from '@spacecadet/contract';
import { CONFIG_MAX_BYTES, configByteLength } from '@spacecadet/core';
import { guildConfigs } from '@spacecadet/db';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { defineRoute } from './define.ts';

/** A replica's copy of a guild's config: every replica drops it when a write is announced. */
export const CONFIG_CACHE = { ttlMs: 60_000, maxEntries: 10_000 } as const;

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

  defineRoute(app, routes.putConfig, async ({ params, body, session }) => {
    if (configByteLength(body) > CONFIG_MAX_BYTES) {
      throw new ApiError('payload_too_large', 'Config is larger than 64 KiB');
    }
    const values = { data: body, updatedBy: session.user.id, updatedAt: new Date() };
    const [row] = await db
      .insert(guildConfigs)
      .values({ guildId: params.guildId, ...values })
      .onConflictDoUpdate({ target: guildConfigs.guildId, set: values })
      .returning();
    if (!row) throw new Error('Config upsert returned no row');
    await replicaCache.announce({ kind: 'config', id: params.guildId });
    return { updated_by: row.updatedBy, updated_at: row.updatedAt.toISOString() };
  });
}
