import type { SeasonStanding } from '@spacecadet/contract';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * Seasons that ended: their name, when, whether rewards were kept, and their top 10 as they
 * stood (names frozen, for the hall of fame). Every member's XP and level is in
 * `leveling_season_members`, so an undo can give them back.
 */
export const levelingSeasons = pgTable(
  'leveling_seasons',
  {
    id: serial('id').primaryKey(),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull().defaultNow(),
    keepRewards: boolean('keep_rewards').notNull().default(false),
    automatic: boolean('automatic').notNull().default(false),
    members: integer('members').notNull().default(0),
    top: jsonb('top').$type<SeasonStanding[]>().notNull().default([]),
  },
  (t) => [index('leveling_seasons_guild_idx').on(t.guildId, t.endedAt)],
);

/** Every member's XP and level when a season ended (the all-time board adds them up). */
export const levelingSeasonMembers = pgTable(
  'leveling_season_members',
  {
    seasonId: integer('season_id')
      .notNull()
      .references(() => levelingSeasons.id, { onDelete: 'cascade' }),
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    xp: bigint('xp', { mode: 'number' }).notNull(),
    level: integer('level').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.seasonId, t.userId], name: 'leveling_season_members_pk' }),
    index('leveling_season_members_member_idx').on(t.guildId, t.userId),
  ],
);

/** A server's own rank card background: the image checked at upload (PNG or JPEG, ≤ 1 MiB). */
export const rankCardBackgrounds = pgTable('rank_card_backgrounds', {
  guildId: text('guild_id').primaryKey(),
  contentType: text('content_type').notNull(),
  /** The image, base64. */
  image: text('image').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type LevelingSeasonRow = typeof levelingSeasons.$inferSelect;
export type LevelingSeasonMemberRow = typeof levelingSeasonMembers.$inferSelect;
export type RankCardBackgroundRow = typeof rankCardBackgrounds.$inferSelect;
