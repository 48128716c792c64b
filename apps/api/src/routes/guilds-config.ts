import { type GuildConfig, routes } from '@spacecadet/contract';
import { guildConfigs } from '@spacecadet/db';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { CONFIG_CACHE, readGuildConfigData, writeGuildConfig } from '../services/guild-config.ts';
import { defineRoute } from './define.ts';

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
