import { botGuilds } from '@spacecadet/db/schema';
import { Events, type Guild } from 'discord.js';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';

/**
 * Keeps `bot_guilds` equal to the guilds the bot is in, for the shards this process runs, so
 * the API can answer "is the bot in this server" without asking Discord.
 */
export function trackBotGuilds(deps: WorkerDeps): void {
  const { client, logger } = deps;
  const guard = (what: string, work: () => Promise<void>) => {
    work().catch((error: unknown) => logger.error({ ...errorFields(error), what }, 'bot_guilds sync failed'));
  };

  // Fires after a shard's READY and all its GUILD_CREATEs (not after a RESUME, which replays).
  client.on(Events.ShardReady, (shardId) => guard('shardReady', () => syncShard(deps, shardId)));
  client.on(Events.GuildCreate, (guild) => guard('guildCreate', () => upsertBotGuild(deps, guild)));
  // An outage emits guildUnavailable instead, so a guildDelete here means the bot really left.
  client.on(Events.GuildDelete, (guild) => guard('guildDelete', () => deleteBotGuild(deps, guild.id)));
}

export async function upsertBotGuild(deps: WorkerDeps, guild: Guild): Promise<void> {
  await upsertBotGuilds(deps, [guild]);
  deps.logger.info({ guildId: guild.id, shardId: guild.shardId }, 'bot in guild');
}

async function upsertBotGuilds(deps: WorkerDeps, guilds: readonly Guild[]): Promise<void> {
  if (guilds.length === 0) return;
  await deps.db
    .insert(botGuilds)
    .values(guilds.map((guild) => ({ guildId: guild.id, name: guild.name, shardId: guild.shardId })))
    .onConflictDoUpdate({
      target: botGuilds.guildId,
      set: { name: sql`excluded.name`, shardId: sql`excluded.shard_id`, updatedAt: sql`now()` },
    });
}

export async function deleteBotGuild(deps: WorkerDeps, guildId: string): Promise<void> {
  await deps.db.delete(botGuilds).where(eq(botGuilds.guildId, guildId));
  deps.logger.info({ guildId }, 'bot left guild');
}

/** Discord routes a guild to shard `(guild_id >> 22) % shard_count`. */
export function shardIdForGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

async function syncShard(deps: WorkerDeps, shardId: number): Promise<void> {
  const { client, config } = deps;
  const shardCount = config.shards?.count ?? 1;
  const ofShard = [...client.guilds.cache.values()].filter((guild) => guild.shardId === shardId);
  await upsertBotGuilds(
    deps,
    ofShard.filter((guild) => guild.available),
  );
  // Rows of this shard's guilds the bot is no longer in (it left while this shard was offline).
  // A guild in an outage is still listed (unavailable) in READY, so it is kept.
  const presentIds = ofShard.map((guild) => guild.id);
  const ofThisShard = sql`((${botGuilds.guildId})::bigint >> 22) % ${shardCount} = ${shardId}`;
  const stale = await deps.db
    .delete(botGuilds)
    .where(presentIds.length > 0 ? and(ofThisShard, notInArray(botGuilds.guildId, presentIds)) : ofThisShard)
    .returning({ guildId: botGuilds.guildId });
  deps.logger.info(
    { shardId, guilds: presentIds.length, removed: stale.map((row) => row.guildId) },
    'bot_guilds synced for shard',
  );
}
