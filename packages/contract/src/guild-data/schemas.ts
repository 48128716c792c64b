import { z } from 'zod';
import { Snowflake, Timestamp } from '../common.ts';

/**
 * When the bot was removed from a server (not an outage): its data is kept until `purge_after`
 * so a re-add restores everything, then the daily purge deletes it.
 */
export const GuildDeparture = z
  .object({ guild_id: Snowflake, left_at: Timestamp, purge_after: Timestamp })
  .meta({ id: 'GuildDeparture' });
export type GuildDeparture = z.infer<typeof GuildDeparture>;

/**
 * What deleting a server's data removes, for the confirmation sentence: the members with XP,
 * the History entries, the role menus and the settings rows by name, and every stored row per
 * table (`tables`), so a feature added later is counted without a new field.
 */
export const GuildDataSummary = z
  .object({
    guild_id: Snowflake,
    /** The signed-in user owns the server: only they may delete its data. */
    owner: z.boolean(),
    members_with_xp: z.number().int().nonnegative(),
    history_entries: z.number().int().nonnegative(),
    role_menus: z.number().int().nonnegative(),
    settings: z.number().int().nonnegative(),
    total_rows: z.number().int().nonnegative(),
    tables: z.record(z.string(), z.number().int().nonnegative()),
    departure: GuildDeparture.nullable(),
  })
  .meta({ id: 'GuildDataSummary' });
export type GuildDataSummary = z.infer<typeof GuildDataSummary>;

/**
 * The deletion is irreversible: the body names the server as Discord does (its exact name), so
 * a stray, replayed or scripted request for another server's id cannot wipe one.
 */
export const DeleteGuildDataBody = z
  .object({ confirm: z.string().min(1, 'Type the server name to confirm').max(200) })
  .meta({ id: 'DeleteGuildDataBody' });
export type DeleteGuildDataBody = z.infer<typeof DeleteGuildDataBody>;

/** The servers the signed-in user owns whose data waits for its purge (the bot was removed). */
export const GuildDepartureList = z
  .object({
    guilds: z.array(GuildDeparture.extend({ name: z.string(), icon: z.string().nullable() })),
  })
  .meta({ id: 'GuildDepartureList' });
export type GuildDepartureList = z.infer<typeof GuildDepartureList>;
