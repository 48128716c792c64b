import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A server whose setup checklist an admin dismissed: one row per guild, so every admin of the
 * server sees the same overview. Deleting the row brings the checklist back.
 */
export const guildSetupDismissals = pgTable('guild_setup_dismissals', {
  guildId: text('guild_id').primaryKey(),
  dismissedBy: text('dismissed_by').notNull(),
  dismissedAt: timestamp('dismissed_at', { withTimezone: true }).notNull().defaultNow(),
});
