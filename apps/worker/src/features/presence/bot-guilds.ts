import { botGuilds } from '@spacecadet/db/schema';
import {
  type Client,
  Events,
  GatewayDispatchEvents,
  type GatewayReadyDispatchData,
  type Guild,
} from 'discord.js';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { WorkerDeps } from '../../deps.ts';
import { forgetGuildChannels } from '../../guild-channels.ts';
import { onGateway } from '../feature.ts';

/**
 * Keeps `bot_guilds` equal to the guilds the bot is in, for the shards this process runs, so
 * the API can answer "is the bot in this server" without asking Discord.
 */
export const botGuildEvents = [
  // READY lists every guild the shard is in. After a session that could not resume, a guild
  // the bot was removed from meanwhile is missing there, yet discord.js keeps it cached (its
  // GUILD_DELETE went to the dead session): forget it before the rest of READY is handled.
  onGateway('raw', 'reconcile cached guilds with READY', (deps, packet, shardId) => {
    if (packet.t === GatewayDispatchEvents.Ready) forgetGuildsMissingFromReady(deps, shardId, packet.d);
  }),
  // Fires after a shard's READY and all its GUILD_CREATEs (not after a RESUME, which replays).
  onGateway(Events.ShardReady, 'sync bot_guilds for a shard', (deps, shardId) => syncShard(deps, shardId)),
  onGateway(Events.GuildCreate, 'record a joined guild', (deps, guild) => upsertBotGuild(deps, guild)),
  // An outage emits guildUnavailable instead, so a guildDelete here means the bot really left.
  onGateway(Events.GuildDelete, 'forget a left guild', (deps, guild) => deleteBotGuild(deps, guild.id)),
];

export async function upsertBotGuild(deps: WorkerDeps, guild: Guild): Promise<void> {
  await upsertBotGuilds(deps, [guild]);
  deps.logger.info({ guildId: guild.id, shardId: guild.shardId }, 'bot in guild');
}

/** Rows per insert: a shard's READY (up to 2,500 guilds on Discord) takes a few statements, not one per guild. */
const UPSERT_ROWS = 1_000;

async function upsertBotGuilds(deps: WorkerDeps, guilds: readonly Guild[]): Promise<void> {
  for (let start = 0; start < guilds.length; start += UPSERT_ROWS) {
    await deps.db
      .insert(botGuilds)
      .values(
        guilds
          .slice(start, start + UPSERT_ROWS)
          .map((guild) => ({ guildId: guild.id, name: guild.name, shardId: guild.shardId })),
      )
      .onConflictDoUpdate({
        target: botGuilds.guildId,
        set: { name: sql`excluded.name`, shardId: sql`excluded.shard_id`, updatedAt: sql`now()` },
      });
  }
}

export async function deleteBotGuild(deps: WorkerDeps, guildId: string): Promise<void> {
  await deps.db.delete(botGuilds).where(eq(botGuilds.guildId, guildId));
  deps.logger.info({ guildId }, 'bot left guild');
}

/**
 * Drops from discord.js's cache the guilds of `shardId` that READY does not list, as a
 * GUILD_DELETE would have, and emits guildDelete so every handler (bot_guilds included) treats
 * it as the leave it was. A guild in an outage is listed in READY (unavailable), so it stays.
 */
function forgetGuildsMissingFromReady(deps: WorkerDeps, shardId: number, ready: GatewayReadyDispatchData) {
  const { client, logger } = deps;
  const listed = new Set(ready.guilds.map((guild) => guild.id));
  const missing = [...client.guilds.cache.values()].filter(
    (guild) => guild.shardId === shardId && !listed.has(guild.id),
  );
  for (const guild of missing) {
    forgetGuild(client, guild);
    logger.info(
      { guildId: guild.id, shardId },
      'guild missing from READY: the bot left it while disconnected',
    );
    client.emit(Events.GuildDelete, guild);
  }
}

function forgetGuild(client: Client, guild: Guild): void {
  for (const channelId of guild.channels.cache.keys()) client.channels.cache.delete(channelId);
  forgetGuildChannels(client, guild.id);
  client.guilds.cache.delete(guild.id);
}

/**
 * After READY and its GUILD_CREATEs, the shard's cached guilds are exactly READY's list (the
 * ones missing from it were forgotten above) plus guilds joined since: store those, delete the
 * shard's other rows.
 */
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
