import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** A greeting in the channel (and by DM), or a goodbye. */
export type WelcomeGreetingKind = 'welcome' | 'goodbye';

/**
 * The welcomes and goodbyes the worker owes or made, one row per member, join and kind: written
 * when the live gateway event is heard (`pending` until posted), so a replayed event, a job run
 * twice or a worker restarted halfway greets once. `batch` is the nonce of the post that claimed
 * the row (one member's own, or a raid batch's naming up to 20): a retry posts under the same
 * nonce, and Discord answers the message already made. `raid` rows are greeted by the merged
 * batch job, the others one by one; `awaiting` rows wait for the member to finish Onboarding. `joined_at` is the join the row belongs to (for a goodbye,
 * the join when known, else the leave). Pruned with the member's data on request.
 */
export const welcomeGreetings = pgTable(
  'welcome_greetings',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    kind: text('kind').$type<WelcomeGreetingKind>().notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    /** The member's display name when heard (what the message names). */
    username: text('username').notNull(),
    /** Names of the member's Onboarding picks (`{answers}`). */
    answers: text('answers').array().notNull(),
    /** The server's members after the join or leave. */
    memberCount: integer('member_count').notNull(),
    raid: boolean('raid').notNull().default(false),
    /**
     * Held until the member finishes Membership Screening / Onboarding (`send_when:
     * 'onboarding_complete'`): recorded at the join, owed once GUILD_MEMBER_UPDATE shows them done.
     */
    awaiting: boolean('awaiting').notNull().default(false),
    batch: text('batch'),
    heardAt: timestamp('heard_at', { withTimezone: true }).notNull().defaultNow(),
    greetedAt: timestamp('greeted_at', { withTimezone: true }),
    messageId: text('message_id'),
    /** Why nothing was posted (settings off, channel not the server's, too late), when so. */
    skipped: text('skipped'),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.userId, t.kind, t.joinedAt] }),
    index('welcome_greetings_pending_idx').on(t.guildId, t.raid, t.heardAt),
  ],
);

export type WelcomeGreetingRow = typeof welcomeGreetings.$inferSelect;
