/** A member's own data: what `GET /api/me/data` downloads and what `DELETE` answers. */
import { z } from 'zod';
import { Snowflake, Timestamp } from '../common.ts';
import { HistoryRefs } from '../history/schemas.ts';

const MemberDataSession = z.object({
  id: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  created_at: Timestamp,
  expires_at: Timestamp,
  revoked_at: Timestamp.nullable(),
});

const MemberDataServer = z.object({
  guild_id: Snowflake,
  /** The running XP row (null: none in this server). */
  xp: z
    .object({
      xp: z.number(),
      level: z.number().int(),
      message_count: z.number().int(),
      last_message_at: Timestamp.nullable(),
      username: z.string().nullable(),
      avatar: z.string().nullable(),
      left_at: Timestamp.nullable(),
      /** The level whose reward roles they kept when a season ended (0: none kept). */
      kept_level: z.number().int(),
    })
    .nullable(),
  /** Their XP and level when each past season ended. */
  seasons: z.array(
    z.object({ season: z.string(), ended_at: Timestamp, xp: z.number(), level: z.number().int() }),
  ),
  daily: z.array(
    z.object({ day: z.string(), xp: z.number(), messages: z.number().int(), level_ups: z.number().int() }),
  ),
  pending_level_ups: z.array(z.object({ level: z.number().int(), created_at: Timestamp })),
  picks: z.array(z.object({ scope: z.string(), target_key: z.string(), picked_at: Timestamp })),
  boosts: z.array(z.object({ multiplier: z.number(), expires_at: Timestamp.nullable() })),
  /** Their answers to personality questions as given and dropped (the insights' events). */
  answers: z.array(
    z.object({
      question_id: z.number().int(),
      option_id: z.number().int(),
      kind: z.string(),
      source: z.string(),
      at: Timestamp,
    }),
  ),
  /** The roles they held when they left, kept to give back if they rejoin (sticky roles). */
  sticky_roles: z.array(z.object({ role_ids: z.array(Snowflake), left_at: Timestamp })),
  /** Settings whose last change was theirs (`config`, or a role menu's id). */
  last_changed: z.array(z.object({ what: z.string(), at: Timestamp })),
});

const MemberDataHistory = z.object({
  id: z.number().int(),
  guild_id: Snowflake,
  at: Timestamp,
  /** `actor`: they made the change; `named`: the entry names them. */
  role: z.enum(['actor', 'named']),
  actor_name: z.string(),
  actor_avatar: z.string().nullable(),
  action: z.string(),
  summary: z.string(),
  refs: HistoryRefs.nullable(),
});

/** One Redis key about them that lives longer than a moment (cooldowns, picks, caches). */
const MemberDataRedisEntry = z.object({
  key: z.string(),
  type: z.string(),
  value: z.unknown(),
  /** Milliseconds until it expires (null: kept until removed). */
  expires_in_ms: z.number().int().nullable(),
});

export const MemberDataExport = z
  .object({
    user_id: Snowflake,
    exported_at: Timestamp,
    sessions: z.array(MemberDataSession),
    servers: z.array(MemberDataServer),
    history: z.array(MemberDataHistory),
    redis: z.array(MemberDataRedisEntry),
  })
  .meta({ id: 'MemberDataExport' });
export type MemberDataExport = z.infer<typeof MemberDataExport>;

export const MemberDataErased = z
  .object({
    xp_rows: z.number().int(),
    daily_rows: z.number().int(),
    picks: z.number().int(),
    level_ups: z.number().int(),
    boosts: z.number().int(),
    /** Entries kept without the name and avatar. */
    history_entries: z.number().int(),
    /** Settings rows whose "last changed by" was cleared. */
    settings_rows: z.number().int(),
    /** Redis keys removed, plus buffered XP fields dropped. */
    redis_keys: z.number().int(),
    sessions_revoked: z.number().int(),
  })
  .meta({ id: 'MemberDataErased' });
export type MemberDataErased = z.infer<typeof MemberDataErased>;
