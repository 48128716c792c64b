import {
  type GuildDataSummary,
  type GuildDeparture,
  type GuildDepartureList,
  MESSAGES,
} from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import {
  botIsInGuild,
  countGuildData,
  guildDeparture,
  guildDeparturesOf,
} from '@spacecadet/db/queries/guild-data';
import type { GuildDepartureRow } from '@spacecadet/db/schema';
import { ApiError } from '../errors.ts';
import type { AppServices } from './container.ts';
import { DiscordError } from './discord.ts';
import { discordFailure } from './guild-resource-answers.ts';
import { enqueueGuildJob, type JobRequester } from './jobs.ts';
import type { SessionContext } from './sessions.ts';

/** What the owner check knows of the server: its owner and name, from Discord. */
interface GuildOwnership {
  owner: boolean;
  name: string;
}

/**
 * Whether the signed-in user owns the server. Discord's own answer to the bot (`GET /guilds/{id}`,
 * `owner_id`) is preferred: it is current (an ownership transfer counts at once), whereas the
 * user's guild list (`owner` flag) is cached for its TTL. The list is the only source left when
 * the bot is not in the server (removed, its data pending the purge); it is read with the
 * user's own token, so it still speaks for Discord.
 */
async function ownership(
  services: AppServices,
  session: SessionContext,
  guildId: string,
): Promise<GuildOwnership> {
  const listed = (await services.guildAccess.adminGuilds(session)).find((guild) => guild.id === guildId);
  if (await botIsInGuild(services.db, guildId)) {
    try {
      const guild = await services.discord.getGuild(guildId);
      if (guild.owner_id !== undefined)
        return { owner: guild.owner_id === session.user.id, name: guild.name };
    } catch (error) {
      // Removed since bot_guilds was written: fall back on the user's list below.
      if (!(error instanceof DiscordError && (error.status === 403 || error.status === 404))) {
        throw discordFailure(error, 'the server');
      }
    }
  }
  return { owner: listed?.owner === true, name: listed?.name ?? '' };
}

function departureOf(row: GuildDepartureRow): GuildDeparture {
  return {
    guild_id: row.guildId,
    left_at: row.leftAt.toISOString(),
    purge_after: row.purgeAfter.toISOString(),
  };
}

/** Tables counted as "settings" in the confirmation: a guild's one-row setups. */
const SETTINGS_TABLES = ['guild_configs', 'leveling_settings', 'personality_configs', 'color_panels'];

/** What deleting the server's data removes (every row per table) and whether the user may. */
export async function guildDataSummary(
  services: AppServices,
  session: SessionContext,
  guildId: string,
): Promise<GuildDataSummary> {
  const [{ owner }, tables, departure] = await Promise.all([
    ownership(services, session, guildId),
    // A count of every table of the guild: heavy, so the read replica's once it has the guild's
    // last write. The departure row stays on the primary (the worker's, read to refuse or allow).
    services.reads.read({ guildId }, (db) => countGuildData(db, guildId)),
    guildDeparture(services.db, guildId),
  ]);
  return {
    guild_id: guildId,
    owner,
    members_with_xp: tables.member_xp ?? 0,
    history_entries: tables.guild_history ?? 0,
    role_menus: tables.role_menus ?? 0,
    settings: SETTINGS_TABLES.reduce((sum, name) => sum + (tables[name] ?? 0), 0),
    total_rows: Object.values(tables).reduce((sum, n) => sum + n, 0),
    tables,
    departure: departure === null ? null : departureOf(departure),
  };
}

/**
 * Queues `guild-data.delete` for the owner, once the body names the server as Discord does:
 * deletion cannot be undone, so a stray or replayed request (a script looping over ids, a tab
 * left on another server) must not wipe one. Answers the job id.
 */
export async function queueGuildDataDeletion(
  services: AppServices,
  session: SessionContext,
  guildId: string,
  confirm: string,
  by: JobRequester,
): Promise<string> {
  const { owner, name } = await ownership(services, session, guildId);
  if (!owner) throw new ApiError('forbidden', MESSAGES.guildDataOwnerOnly);
  if (name === '' || confirm.trim() !== name.trim()) {
    throw new ApiError('invalid_input', MESSAGES.guildDataConfirmMismatch, [
      { path: 'confirm', message: MESSAGES.guildDataConfirmMismatch },
    ]);
  }
  return enqueueGuildJob(services.queue, 'guild-data.delete', guildId, by);
}

/** The servers the user owns (their Discord list) whose data waits for its purge. */
export async function ownedGuildDepartures(
  services: AppServices,
  session: SessionContext,
): Promise<GuildDepartureList> {
  const owned = (await services.guildAccess.adminGuilds(session)).filter((guild) => guild.owner === true);
  const rows = await guildDeparturesOf(
    services.db as Db,
    owned.map((guild) => guild.id),
  );
  const byId = new Map(owned.map((guild) => [guild.id, guild]));
  return {
    guilds: rows
      .map((row) => ({
        ...departureOf(row),
        name: byId.get(row.guildId)?.name ?? '',
        icon: byId.get(row.guildId)?.icon ?? null,
      }))
      .sort((a, b) => a.purge_after.localeCompare(b.purge_after)),
  };
}
