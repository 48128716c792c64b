import type { JobResult } from '@spacecadet/contract';
import {
  botIsInGuild,
  clearGuildDepartures,
  deleteGuildDeparture,
  departedGuildIds,
  guildDeparture,
  recordGuildDeparture,
} from '@spacecadet/db/queries/guild-data';
import { Events } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { ensureGuildSchedule, type FeatureSchedule } from '../../jobs/schedules.ts';
import type { JobContext } from '../../jobs/types.ts';
import { onGateway } from '../feature.ts';
import { wipeGuild } from './wipe.ts';

const DAY_MS = 24 * 3600_000;

/**
 * Daily, for every guild the bot was removed from: purges it once its retention is over. One
 * scheduler per departed guild (the host's schedule model), so a purge is a guild job like the
 * others, under the guild's lock, with its status readable.
 */
export const guildPurgeSchedule: FeatureSchedule = {
  job: 'guild-data.purge',
  repeat: { pattern: '41 4 * * *' },
  guilds: (deps, shards) => departedGuildIds(deps.db, shards),
};

/**
 * The bot was removed (an outage emits guildUnavailable instead, and reaches no handler here):
 * keep the data DATA_RETENTION_DAYS, then the purge deletes it.
 */
export async function recordDeparture(deps: WorkerDeps, guildId: string, now = new Date()): Promise<void> {
  const purgeAfter = new Date(now.getTime() + deps.config.dataRetentionDays * DAY_MS);
  await recordGuildDeparture(deps.db, guildId, purgeAfter);
  // The host removes a left guild's schedulers; this one is added back by its minute sync too.
  await ensureGuildSchedule(deps, guildPurgeSchedule, guildId).catch(() => undefined);
  deps.logger.info({ guildId, purgeAfter }, 'bot removed from guild; its data is kept until the purge');
}

/** The bot is back in these guilds: nothing of theirs is due for a purge any more. */
export async function clearDepartures(deps: WorkerDeps, guildIds: readonly string[]): Promise<void> {
  const cleared = await clearGuildDepartures(deps.db, guildIds);
  if (cleared.length > 0) deps.logger.info({ guildIds: cleared }, 'bot back in guild; its data is kept');
}

export const retentionEvents = [
  onGateway(Events.GuildDelete, 'record a departure', (deps, guild) => recordDeparture(deps, guild.id)),
  onGateway(Events.GuildCreate, 'clear a departure', (deps, guild) => clearDepartures(deps, [guild.id])),
  // READY lists the shard's guilds: one the bot was re-added to while offline is back.
  onGateway(Events.ShardReady, 'clear departures of guilds present', (deps, shardId) =>
    clearDepartures(
      deps,
      [...deps.client.guilds.cache.values()].filter((g) => g.shardId === shardId).map((g) => g.id),
    ),
  ),
];

/**
 * `guild-data.purge`: deletes a departed guild's data once past its `purge_after`. Nothing
 * before (the daily run comes back), nothing when the bot is back (then the record goes).
 */
export async function purgeGuild(context: JobContext): Promise<JobResult> {
  const { deps, payload } = context;
  const guildId = payload.guild_id;
  const departure = await guildDeparture(deps.db, guildId);
  if (departure === null)
    return { ok: true, summary: 'Nothing to purge: the bot was not removed from this server.' };
  if (await botIsInGuild(deps.db, guildId)) {
    await deleteGuildDeparture(deps.db, guildId);
    return { ok: true, summary: 'The bot is back in this server: its data is kept.' };
  }
  if (departure.purgeAfter.getTime() > Date.now()) {
    return { ok: true, summary: `Kept until ${departure.purgeAfter.toISOString()}.` };
  }
  const wiped = await wipeGuild(deps, guildId, context.jobId);
  await context.progress(100);
  return {
    ok: true,
    summary: `Purged: ${wiped.rows} rows and ${wiped.keys} keys deleted.`,
    deleted: wiped.rows,
  };
}
