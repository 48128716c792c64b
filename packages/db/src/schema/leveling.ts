import {
  DEFAULT_LEVEL_UP_MESSAGE,
  type LeaderboardVisibility,
  type LevelCurve,
  type LevelUpDestination,
  type RewardMode,
  type XpDecay,
} from '@spacecadet/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';

export const levelingSettings = pgTable('leveling_settings', {
  guildId: text('guild_id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  xpMultiplier: doublePrecision('xp_multiplier').notNull().default(1),
  announcementChannel: text('announcement_channel'),
  dailyOverviewChannel: text('daily_overview_channel'),
  /** The least XP a message earns (the column kept its name from when min = max). */
  xpMin: integer('xp_per_message').notNull().default(10),
  /** The most XP a message earns: each earns a random whole amount from xp_min to xp_max. */
  xpMax: integer('xp_max').notNull().default(10),
  messageCooldownSec: integer('message_cooldown_sec').notNull().default(30),
  /** Channels whose messages earn no XP (and start no cooldown). */
  noXpChannels: text('no_xp_channels').array().notNull().default(sql`'{}'::text[]`),
  /** Roles whose holders earn no XP. */
  noXpRoles: text('no_xp_roles').array().notNull().default(sql`'{}'::text[]`),
  /** The admin's level-up message with placeholders (core `renderLevelUpMessage`). */
  levelUpMessage: text('level_up_message').notNull().default(DEFAULT_LEVEL_UP_MESSAGE),
  /** Where level-up messages go: off, current (the channel of the message), dm, channel. */
  levelUpDestination: text('level_up_destination').$type<LevelUpDestination>().notNull().default('channel'),
  /** stack: every reward up to the level; highest: only the highest one reached. */
  rewardMode: text('reward_mode').$type<RewardMode>().notNull().default('stack'),
  /** Who may open the public leaderboard page: off, members (signed in), anyone. */
  leaderboardVisibility: text('leaderboard_visibility')
    .$type<LeaderboardVisibility>()
    .notNull()
    .default('off'),
  /** XP for each full minute in voice; 0: voice earns nothing. */
  voiceXpPerMinute: integer('voice_xp_per_minute').notNull().default(0),
  /** Members (bots aside) a voice channel needs for anyone in it to earn. */
  voiceMinMembers: integer('voice_min_members').notNull().default(2),
  /** The admin's XP curve; null: the default 5·L² + 50·L + 100. */
  levelCurve: jsonb('level_curve').$type<LevelCurve>(),
  /** XP decay for the inactive; null: off. */
  xpDecay: jsonb('xp_decay').$type<XpDecay>(),
  /** The rank card's accent color `#rrggbb`; null: the bot's role color. */
  rankCardAccent: text('rank_card_accent'),
  /** A season ends by itself every this many months; null: only by hand. */
  seasonMonths: integer('season_months'),
  /** Whether members keep their reward roles when the schedule ends a season. */
  seasonKeepRewards: boolean('season_keep_rewards').notNull().default(true),
  /** When the current season began (the last end, or when the schedule was set); null: never. */
  seasonStartedAt: timestamp('season_started_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Level reward roles; pending until the bot creates the role and stores its id. */
export const levelingRoles = pgTable(
  'leveling_roles',
  {
    id: serial('id').primaryKey(),
    guildId: text('guild_id').notNull(),
    roleName: varchar('role_name', { length: 100 }).notNull(),
    levelRequired: integer('level_required').notNull().default(1),
    isImageRole: boolean('is_image_role').notNull().default(false),
    roleId: text('role_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('leveling_roles_guild_idx').on(t.guildId)],
);

/** XP boosts. user_id null = server-wide, `-role:<id>` = role boost, else one member. */
export const levelingBoosts = pgTable(
  'leveling_boosts',
  {
    id: serial('id').primaryKey(),
    guildId: text('guild_id').notNull(),
    multiplier: doublePrecision('multiplier').notNull().default(2),
    userId: text('user_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('leveling_boosts_guild_idx').on(t.guildId)],
);

/**
 * `member_xp` and `member_daily_xp` are hash-partitioned by `guild_id` (PostgreSQL native
 * partitioning, migration 0026): each is `XP_PARTITIONS` tables, named `<table>_p00`... in the
 * schema `XP_PARTITION_SCHEMA` (out of `public`, so the tables the app and its house-rule tests
 * list are the parents only). A query naming one guild reads and locks one partition, and its
 * indexes are a sixteenth of the table's. Drizzle (0.45) cannot declare partitioning, so the
 * tables below are the parents as queries see them, drizzle-kit diffs only their columns and
 * keys, and packages/db/test/partitioning.test.ts checks the live database against these
 * constants. Changing the count means a migration that builds the tables again with the new
 * modulus and moves the rows, as 0026 does: hash partitions cannot be split in place.
 */
export const XP_PARTITIONS = 16;
export const XP_PARTITION_SCHEMA = 'xp_partitions';
/** The partitioned tables, each `PARTITION BY HASH (guild_id)`. */
export const XP_PARTITIONED_TABLES = ['member_xp', 'member_daily_xp'] as const;

/**
 * A member's running XP. `xp` is bigint in SQL but read as a JS number: 2^53 XP is far past
 * any reachable level. `left_at` marks leavers so Prune leavers can delete them. Partitioned by
 * guild (see `XP_PARTITIONS`): its primary key, like every unique key, starts with `guild_id`.
 */
export const memberXp = pgTable(
  'member_xp',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    xp: bigint('xp', { mode: 'number' }).notNull().default(0),
    level: integer('level').notNull().default(0),
    messageCount: integer('message_count').notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    /** The member's name and avatar hash when they last earned XP, for leaderboards. */
    username: text('username'),
    avatar: text('avatar'),
    leftAt: timestamp('left_at', { withTimezone: true }),
    /**
     * Set when an admin tool (set, reset, import) changed the XP: the member's reward roles must
     * be brought in line with the new level (job `leveling.apply-rewards`), which clears it when
     * it still holds the value it read.
     */
    rewardsDueAt: timestamp('rewards_due_at', { withTimezone: true }),
    /** The member's own rank card accent (`/rank color`); null: the server's. */
    cardAccent: text('card_accent'),
    /** When XP decay last took from this member (one decay a week). */
    decayedAt: timestamp('decayed_at', { withTimezone: true }),
    /**
     * The level whose rewards the member kept when a season ended with `keep_rewards`: their
     * rewards follow the greater of it and `level`, so a later level-up or Sync Roles does not
     * take the kept roles away. 0: nothing kept.
     */
    keptLevel: integer('kept_level').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.userId], name: 'member_xp_pk' }),
    // The leaderboard reads a guild's members by XP, highest first.
    index('member_xp_guild_xp_idx').on(t.guildId, t.xp.desc()),
  ],
);

/** XP earned per UTC day, for the daily overview of yesterday's top earners. Partitioned by guild (see `XP_PARTITIONS`). */
export const memberDailyXp = pgTable(
  'member_daily_xp',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    xp: bigint('xp', { mode: 'number' }).notNull().default(0),
    /** The member's chat messages that day, whether or not they earned XP (cooldown, no-XP). */
    messages: integer('messages').notNull().default(0),
    /** Levels gained that day. */
    levelUps: integer('level_ups').notNull().default(0),
    /** Full minutes counted in voice that day (earning or not). */
    voiceMinutes: integer('voice_minutes').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.userId, t.day], name: 'member_daily_xp_pk' }),
    index('member_daily_xp_guild_day_idx').on(t.guildId, t.day, t.xp.desc()),
  ],
);

/**
 * XP batches already written: the worker moves buffered XP out of Redis under a batch id and
 * writes it here in the same transaction as the XP, so a batch retried after a crash between
 * the write and the Redis cleanup is not counted twice. Rows older than an hour are pruned.
 * Keyed by the batch's guild first, as the XP it guards is, so the record sits with its guild's
 * rows when the tables are spread over servers by guild (docs/capacity.md, the Citus step).
 * Not server data: a server's deletion keeps it (`GUILD_TABLES_KEPT`), the prune removes it.
 */
export const xpFlushBatches = pgTable(
  'xp_flush_batches',
  {
    guildId: text('guild_id').notNull(),
    batchId: text('batch_id').notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.batchId], name: 'xp_flush_batches_pk' })],
);

/**
 * Level-ups not yet celebrated: written with the XP batch that crossed the level (same
 * transaction), deleted once announced and rewarded. `claimed_until` is the lease of the process
 * delivering it (set at insert for the writer): past it, any process takes it over.
 * `announcing` is set before the announcement is posted, so a retry looks for it in the
 * channel first instead of posting a second one.
 */
export const pendingLevelUps = pgTable(
  'pending_level_ups',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    level: integer('level').notNull(),
    /** The channel of the message that crossed the level (destination `current`). */
    channelId: text('channel_id'),
    /**
     * The level the member had before (one flush may cross several): the rewards of every level
     * crossed are the message's `{rewards}`. Null in rows written before it was kept.
     */
    previousLevel: integer('previous_level'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }).notNull().defaultNow(),
    announcing: boolean('announcing').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.userId, t.level], name: 'pending_level_ups_pk' }),
    index('pending_level_ups_claimed_idx').on(t.claimedUntil),
  ],
);

export type LevelingSettingsRow = typeof levelingSettings.$inferSelect;
export type LevelingRoleRow = typeof levelingRoles.$inferSelect;
export type LevelingBoostRow = typeof levelingBoosts.$inferSelect;
export type MemberXpRow = typeof memberXp.$inferSelect;
export type MemberDailyXpRow = typeof memberDailyXp.$inferSelect;
