import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One sign-in of one browser: the user's Discord tokens (encrypted, so the browser never sees a
 * Discord token) and the refresh token of the browser's httpOnly cookie (only its sha256), which
 * trades for a fresh tab bearer (`sessions`). Discord rotates its refresh token on use, so the
 * Discord tokens live here once, refreshed under this row's lock, never copied per tab.
 *
 * The refresh token rotates on every use; the one before stays accepted for a short grace (two
 * tabs refreshing at once) and, replayed after it, ends the whole sign-in (a stolen cookie).
 */
export const signIns = pgTable(
  'sign_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id').notNull(),
    /** The user as Discord named them at sign-in, for the bearers this sign-in hands out. */
    username: text('username').notNull(),
    discriminator: text('discriminator').notNull().default('0'),
    avatar: text('avatar'),
    discordAccessTokenEnc: text('discord_access_token_enc').notNull(),
    discordRefreshTokenEnc: text('discord_refresh_token_enc'),
    discordTokenExpiresAt: timestamp('discord_token_expires_at', { withTimezone: true }).notNull(),
    /** sha256 of the browser's current refresh token; null for a sign-in without a cookie. */
    refreshTokenHash: text('refresh_token_hash').unique(),
    /** sha256 of the refresh token before the current one, accepted until rotatedAt + grace. */
    previousRefreshTokenHash: text('previous_refresh_token_hash').unique(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The refresh cookie's end: after it the browser must sign in with Discord again. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sign_ins_user_id_idx').on(t.userId)],
);

/**
 * Dashboard tab sessions: the opaque bearer token a tab holds (we keep its sha256), short-lived
 * (SESSION_TTL), each belonging to a sign-in whose Discord tokens it uses.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    signInId: uuid('sign_in_id')
      .notNull()
      .references(() => signIns.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    username: text('username').notNull(),
    discriminator: text('discriminator').notNull().default('0'),
    avatar: text('avatar'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_sign_in_id_idx').on(t.signInId)],
);

export type SignInRow = typeof signIns.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type NewSessionRow = typeof sessions.$inferInsert;
