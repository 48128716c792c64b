import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Discord Linked Roles: a user who authorized `role_connections.write` on the linking page. One
 * role connection per user and application, so the user picks the server whose level it shows.
 * Their tokens are encrypted at rest as a sign-in's are. `push_due_at` is set when the shown
 * level or XP changed; a batched job pushes it and records what Discord holds.
 */
export const roleConnections = pgTable(
  'role_connections',
  {
    userId: text('user_id').primaryKey(),
    /** The server whose level and XP the connection shows; null until the user picks one. */
    guildId: text('guild_id'),
    accessTokenEnc: text('access_token_enc').notNull(),
    refreshTokenEnc: text('refresh_token_enc'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }).notNull(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
    /** What Discord was last sent (null: nothing yet). */
    pushedLevel: integer('pushed_level'),
    pushedXp: bigint('pushed_xp', { mode: 'number' }),
    pushedAt: timestamp('pushed_at', { withTimezone: true }),
    /** Set when the value changed and is not pushed yet. */
    pushDueAt: timestamp('push_due_at', { withTimezone: true }),
  },
  (t) => [
    index('role_connections_guild_idx').on(t.guildId),
    index('role_connections_push_due_idx').on(t.pushDueAt),
  ],
);

export type RoleConnectionRow = typeof roleConnections.$inferSelect;
