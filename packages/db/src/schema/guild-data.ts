import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Servers the bot was removed from (a GUILD_DELETE that was not an outage): their data is kept
 * until `purge_after` (DATA_RETENTION_DAYS later) so a re-add restores everything; a re-add
 * deletes the row, and the daily purge deletes the data of a server past it, then the row.
 */
export const guildDepartures = pgTable(
  'guild_departures',
  {
    guildId: text('guild_id').primaryKey(),
    leftAt: timestamp('left_at', { withTimezone: true }).notNull().defaultNow(),
    purgeAfter: timestamp('purge_after', { withTimezone: true }).notNull(),
  },
  (t) => [index('guild_departures_purge_idx').on(t.purgeAfter)],
);

export type GuildDepartureRow = typeof guildDepartures.$inferSelect;
