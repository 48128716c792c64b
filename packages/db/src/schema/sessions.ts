import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Dashboard sign-in sessions. The browser holds only our opaque token; we keep its sha256
 * and the user's Discord tokens, encrypted, so the browser never sees a Discord token.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: text('user_id').notNull(),
    username: text('username').notNull(),
    discriminator: text('discriminator').notNull().default('0'),
    avatar: text('avatar'),
    discordAccessTokenEnc: text('discord_access_token_enc').notNull(),
    discordRefreshTokenEnc: text('discord_refresh_token_enc'),
    discordTokenExpiresAt: timestamp('discord_token_expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export type SessionRow = typeof sessions.$inferSelect;
export type NewSessionRow = typeof sessions.$inferInsert;
