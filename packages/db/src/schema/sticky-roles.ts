import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Sticky roles (welcome settings `sticky_roles`): the roles a member held when they left (not
 * @everyone, managed roles, roles at or above the bot's, nor the server's excluded ones), given
 * back when they rejoin within DATA_RETENTION_DAYS and then deleted; a daily purge deletes rows
 * older than that. One row per member and server: a later leave replaces it.
 */
export const stickyRoles = pgTable(
  'sticky_roles',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    roleIds: text('role_ids').array().notNull(),
    leftAt: timestamp('left_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.userId] }), index('sticky_roles_left_at_idx').on(t.leftAt)],
);
export type StickyRolesRow = typeof stickyRoles.$inferSelect;
