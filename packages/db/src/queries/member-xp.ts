/**
 * Members' XP as the worker's flushes write it: running XP, the day's totals and the levels
 * crossed. Why one file: the batch write is one transaction whose named steps share its row
 * shapes and its lock order; the pending level-ups it records are in member-xp/pending-level-ups.ts.
 */
import type { LevelCurve } from '@spacecadet/contract';
import { levelForTotalXp } from '@spacecadet/core';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { pendingLevelUps, xpFlushBatches } from '../schema/leveling.ts';
import { loadLevelCurves } from './leveling/curve.ts';
import { beginXpWrite, erasedInBatches } from './member-xp/erasures.ts';
import { markRoleConnectionsDue } from './role-connections.ts';

/** One member's XP earned since the last flush, as the worker's buffer holds it. */
export interface BufferedXp {
  userId: string;
  /** XP earned (0 when every message was in cooldown or earned nothing). */
  xp: number;
  /** Chat messages sent, whether or not they earned XP (the day's overview counts them). */
  messages: number;
  /** Of those, the messages that earned XP (the member's `message_count`); absent: `messages`. */
  earned?: number;
  /** The channel of the member's latest message that earned XP (where a level it crossed was reached). */
  channelId?: string | null;
  /** Minutes in voice that earned XP (the XP is in `xp`); absent: 0. */
  voiceMinutes?: number;
  /** The member's display name and avatar hash on their latest message. */
  username: string | null;
  avatar: string | null;
}

export interface LevelUp {
  userId: string;
  username: string | null;
  /** The channel of the message that crossed the level, when known. */
  channelId: string | null;
  previousLevel: number;
  level: number;
  /** When its pending row was recorded (see `PendingLevelUp.recordedAt`). */
  recordedAt: Date;
}

/**
 * Writes one batch of buffered XP in one transaction (see `writeXpBatches`); `applied` is false
 * when the batch was written before (or holds nobody) and nothing changed.
 */
export async function writeXpBatch(
  db: Db,
  batch: {
    batchId: string;
    guildId: string;
    day: string;
    members: readonly BufferedXp[];
    /** How long the writer holds the level-ups it records (see `pendingLevelUps`). */
    levelUpLeaseMs: number;
  },
): Promise<{ applied: boolean; levelUps: LevelUp[] }> {
  const { batchId, guildId, members, day, levelUpLeaseMs } = batch;
  const written = await writeXpBatches(db, { batches: [{ batchId, guildId, members }], day, levelUpLeaseMs });
  return { applied: written.applied.length > 0, levelUps: written.levelUps };
}

/** One guild's buffered XP under its batch id. */
export interface XpBatchInput {
  batchId: string;
  guildId: string;
  members: readonly BufferedXp[];
}

const byGuildAndUser = (a: { guildId: string; userId: string }, b: { guildId: string; userId: string }) =>
  a.guildId < b.guildId
    ? -1
    : a.guildId > b.guildId
      ? 1
      : a.userId < b.userId
        ? -1
        : a.userId > b.userId
          ? 1
          : 0;

/**
 * Writes many guilds' batches of buffered XP in one transaction (a flush over thousands of
 * guilds costs a few commits, not one each): the running XP of members who earned some (a
 * message also shows the member is still there, so `left_at` is cleared), the day's totals for
 * the daily overview (every chat message, earning or not), and the levels members crossed,
 * which it returns with their guild. Each batch id is recorded in the same transaction, so a
 * batch written again (its writer died before clearing it from Redis) is skipped: it is not in
 * `applied` and changes nothing, while the others in the call are written.
 *
 * Level-ups are decided under the rows' locks (the upsert holds them until commit), so when
 * several processes write one guild at once each crossing is reported by exactly one of them.
 */
export async function writeXpBatches(
  db: Db,
  input: {
    batches: readonly XpBatchInput[];
    day: string;
    /** How long the writer holds the level-ups it records (see `pendingLevelUps`). */
    levelUpLeaseMs: number;
  },
): Promise<{ applied: string[]; levelUps: Array<LevelUp & { guildId: string }> }> {
  // A batch holding nobody is not recorded (as before batches were written together).
  const batches = input.batches.filter((batch) => batch.members.length > 0);
  if (batches.length === 0) return { applied: [], levelUps: [] };
  // One order for every writer (batch ids, then guild and member), so two transactions cannot deadlock.
  const batchIds = [...new Set(batches.map((batch) => batch.batchId))].sort();
  return db.transaction(async (tx) => {
    // Many small commits a second: not waiting for each one's WAL flush keeps the writers
    // ahead of a busy chat. A Postgres crash can then lose the last fraction of a second of
    // XP (at most 3 × wal_writer_delay, 600 ms by default), within the second the worker may.
    // The member-data erase lock is held shared (member-xp/erasures.ts).
    await beginXpWrite(tx);
    const guildOf = new Map(batches.map((batch) => [batch.batchId, batch.guildId]));
    const applied = await claimBatches(
      tx,
      batchIds.map((batchId) => ({ guildId: guildOf.get(batchId) as string, batchId })),
    );
    if (applied.size === 0) return { applied: [], levelUps: [] };
    // Members who erased their data while their XP was in flight are left out of it.
    const erased = await erasedInBatches(tx, batches);
    const kept = batches.map((batch) => ({
      ...batch,
      members: batch.members.filter((m) => !erased.has(`${batch.batchId}:${m.userId}`)),
    }));
    const merged = mergeMembers(kept, applied);
    const members = [...merged.values()].sort(byGuildAndUser);
    // Levels follow each guild's own curve (one read for every guild of the flush).
    const curves = await loadLevelCurves(tx, [...new Set(members.map((m) => m.guildId))]);
    const levelUps = await addEarnedXp(tx, members, merged, curves);
    if (levelUps.length > 0) await recordLevelUps(tx, levelUps, input.levelUpLeaseMs);
    const recorded = await recordedTimes(tx, levelUps);
    await addDailyTotals(tx, members, levelUps, input.day);
    return {
      applied: batchIds.filter((id) => applied.has(id)),
      levelUps: levelUps.map((up) => ({
        ...up,
        recordedAt: recorded.get(`${up.guildId}:${up.userId}:${up.level}`) ?? new Date(),
      })),
    };
  });
}

type Tx = Pick<Db, 'execute' | 'insert'>;
type GuildMemberXp = BufferedXp & { guildId: string };
type CrossedLevel = Omit<LevelUp, 'recordedAt'> & { guildId: string };

/**
 * Records the batch ids, each under its guild (the table's key starts with it, as the XP's
 * does); answers those recorded now (the others were written before).
 */
async function claimBatches(
  tx: Tx,
  batches: ReadonlyArray<{ guildId: string; batchId: string }>,
): Promise<Set<string>> {
  const claimed = await tx
    .insert(xpFlushBatches)
    .values([...batches])
    .onConflictDoNothing()
    .returning({ batchId: xpFlushBatches.batchId });
  return new Set(claimed.map((row) => row.batchId));
}

/** The applied batches' members by `guild:user`: a guild's member in two batches (one taken over, one fresh) is one row of each upsert. */
function mergeMembers(
  batches: readonly XpBatchInput[],
  applied: ReadonlySet<string>,
): Map<string, GuildMemberXp> {
  const merged = new Map<string, GuildMemberXp>();
  for (const batch of batches) {
    if (!applied.has(batch.batchId)) continue;
    for (const m of batch.members) {
      const key = `${batch.guildId}:${m.userId}`;
      const earned = m.earned ?? m.messages;
      const seen = merged.get(key);
      if (!seen) {
        merged.set(key, { ...m, earned, guildId: batch.guildId });
        continue;
      }
      seen.xp += m.xp;
      seen.messages += m.messages;
      seen.earned = (seen.earned ?? 0) + earned;
      seen.voiceMinutes = (seen.voiceMinutes ?? 0) + (m.voiceMinutes ?? 0);
      if (m.xp > 0 || seen.xp === m.xp) {
        seen.username = m.username ?? seen.username;
        seen.avatar = m.avatar;
        seen.channelId = m.channelId ?? seen.channelId ?? null;
      }
    }
  }
  return merged;
}

/** Adds the members' earned XP to their running XP; answers the levels they crossed. */
async function addEarnedXp(
  tx: Tx,
  members: readonly GuildMemberXp[],
  merged: ReadonlyMap<string, GuildMemberXp>,
  curves: ReadonlyMap<string, LevelCurve>,
): Promise<CrossedLevel[]> {
  // Members who earned nothing (cooldown, no-XP channels and roles) only count for the day.
  const earning = JSON.stringify(
    members
      .filter((m) => m.xp > 0)
      .map((m) => ({
        guild_id: m.guildId,
        user_id: m.userId,
        xp: m.xp,
        messages: m.earned,
        username: m.username,
        avatar: m.avatar,
      })),
  );
  const updated = await tx.execute<{
    guild_id: string;
    user_id: string;
    xp: string | number;
    level: number;
    username: string | null;
  }>(sql`
    insert into member_xp (guild_id, user_id, xp, message_count, last_message_at, username, avatar)
    select t.guild_id, t.user_id, t.xp, t.messages, now(), t.username, t.avatar
    from jsonb_to_recordset(${earning}::jsonb)
      as t(guild_id text, user_id text, xp bigint, messages integer, username text, avatar text)
    order by t.guild_id, t.user_id
    on conflict (guild_id, user_id) do update set
      xp = member_xp.xp + excluded.xp,
      message_count = member_xp.message_count + excluded.message_count,
      last_message_at = excluded.last_message_at,
      username = coalesce(excluded.username, member_xp.username),
      avatar = excluded.avatar,
      left_at = null
    returning guild_id, user_id, xp, level, username`);
  const levelUps: CrossedLevel[] = [];
  for (const row of updated.rows) {
    const level = levelForTotalXp(Number(row.xp), curves.get(row.guild_id));
    if (level > row.level) {
      levelUps.push({
        guildId: row.guild_id,
        userId: row.user_id,
        username: row.username,
        channelId: merged.get(`${row.guild_id}:${row.user_id}`)?.channelId ?? null,
        previousLevel: row.level,
        level,
      });
    }
  }
  return levelUps;
}

/** Stores the crossed levels and records them as pending level-ups, held by this writer for `leaseMs`. */
async function recordLevelUps(tx: Tx, levelUps: readonly CrossedLevel[], leaseMs: number): Promise<void> {
  const levels = JSON.stringify(
    levelUps.map((up) => ({ guild_id: up.guildId, user_id: up.userId, level: up.level })),
  );
  await tx.execute(sql`
    update member_xp m set level = t.level
    from jsonb_to_recordset(${levels}::jsonb) as t(guild_id text, user_id text, level integer)
    where m.guild_id = t.guild_id and m.user_id = t.user_id and m.level < t.level`);
  // Linked Roles: a linked member's new level is pushed to Discord by the worker's push job.
  await markRoleConnectionsDue(tx, levelUps);
  // Celebrated after commit by this writer, or by any process once its lease lapsed.
  await tx
    .insert(pendingLevelUps)
    .values(
      levelUps.map((up) => ({
        guildId: up.guildId,
        userId: up.userId,
        level: up.level,
        previousLevel: up.previousLevel,
        channelId: up.channelId,
        claimedUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
      })),
    )
    .onConflictDoNothing();
}

/** Adds the day's totals for the daily overview: every chat message, earning or not, voice minutes and levels gained. */
async function addDailyTotals(
  tx: Tx,
  members: readonly GuildMemberXp[],
  levelUps: readonly CrossedLevel[],
  day: string,
): Promise<void> {
  const gained = new Map(levelUps.map((up) => [`${up.guildId}:${up.userId}`, up.level - up.previousLevel]));
  const daily = JSON.stringify(
    members.map((m) => ({
      guild_id: m.guildId,
      user_id: m.userId,
      xp: m.xp,
      messages: m.messages,
      level_ups: gained.get(`${m.guildId}:${m.userId}`) ?? 0,
      voice_minutes: m.voiceMinutes ?? 0,
    })),
  );
  await tx.execute(sql`
    insert into member_daily_xp (guild_id, user_id, day, xp, messages, level_ups, voice_minutes)
    select t.guild_id, t.user_id, ${day}::date, t.xp, t.messages, t.level_ups, t.voice_minutes
    from jsonb_to_recordset(${daily}::jsonb)
      as t(guild_id text, user_id text, xp bigint, messages integer, level_ups integer, voice_minutes integer)
    order by t.guild_id, t.user_id
    on conflict (guild_id, user_id, day) do update set
      xp = member_daily_xp.xp + excluded.xp,
      messages = member_daily_xp.messages + excluded.messages,
      level_ups = member_daily_xp.level_ups + excluded.level_ups,
      voice_minutes = member_daily_xp.voice_minutes + excluded.voice_minutes`);
}

/**
 * When each level-up's pending row was recorded: now for a new one, earlier for one still
 * pending from before (the same level reached again after XP was taken away, not yet delivered).
 */
async function recordedTimes(
  tx: Pick<Db, 'execute'>,
  levelUps: ReadonlyArray<{ guildId: string; userId: string; level: number }>,
): Promise<Map<string, Date>> {
  if (levelUps.length === 0) return new Map();
  const keys = JSON.stringify(
    levelUps.map((up) => ({ guild_id: up.guildId, user_id: up.userId, level: up.level })),
  );
  const rows = await tx.execute<{
    guild_id: string;
    user_id: string;
    level: number;
    created_at: Date | string;
  }>(sql`
    select p.guild_id, p.user_id, p.level, p.created_at
    from pending_level_ups p
    join jsonb_to_recordset(${keys}::jsonb) as t(guild_id text, user_id text, level integer)
      on p.guild_id = t.guild_id and p.user_id = t.user_id and p.level = t.level`);
  return new Map(
    rows.rows.map((row) => [`${row.guild_id}:${row.user_id}:${row.level}`, new Date(row.created_at)]),
  );
}

/**
 * A batch id only has to outlive the retry of its batch, which another process makes within
 * seconds of its writer dying: an hour is plenty, and keeps the table small however busy.
 */
export async function pruneAppliedXpBatches(db: Db, olderThan: Date): Promise<number> {
  const result = await db.delete(xpFlushBatches).where(lt(xpFlushBatches.appliedAt, olderThan));
  return result.rowCount ?? 0;
}

export * from './member-xp/erasures.ts';
export * from './member-xp/pending-level-ups.ts';
