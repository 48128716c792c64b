import { MEMBER_XP_MAX, type RewardMode } from '@spacecadet/contract';
import { levelForTotalXp, rewardRolesForLevel } from '@spacecadet/core';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { memberXp } from '../schema/leveling.ts';
import { loadLevelCurve } from './leveling/curve.ts';
import { rewardLevel } from './leveling/members.ts';
import { rankedIn } from './leveling.ts';
import { loadXpRows, type XpRowsSnapshot } from './leveling-snapshots.ts';

/**
 * The admins' XP tools (the API's `PUT`/`DELETE …/leveling/members/{userId}`, import, and the
 * worker's `/xp`): they change stored XP and mark the member's rewards as due, so the job
 * `leveling.apply-rewards` brings their reward roles in line with the new level (adding, and
 * removing those above it). XP still buffered in Redis is added on top when it is written.
 *
 * Why one file: every tool here sets or reads the rewards-due mark, whose stamping and clearing
 * must stay in step (a change that forgets it leaves a member's reward roles behind).
 */

/** Millisecond precision, so the stamp read into a JS Date compares equal when cleared. */
export const DUE_NOW = sql`date_trunc('milliseconds', clock_timestamp())`;

export interface MemberXpChange {
  userId: string;
  xp: number;
  level: number;
  previousXp: number;
  previousLevel: number;
  /** The rewards-due mark this change set (what clearing it after applying them compares). */
  dueAt: Date;
}

/**
 * Locks the XP rows of `userIds` (sorted by the caller: one order for every writer of
 * member_xp, as writeXpBatch takes its rows, so two writers cannot deadlock), creating the
 * missing ones: one upsert, so a row another writer is creating at the same time is waited
 * for, never overwritten. Answers each member's XP and level before (the rows it found) and
 * which rows it created. member_xp is partitioned (see `XP_PARTITIONS`), and Postgres 15 cannot
 * return a system column (`xmax = 0`, "inserted") from a partitioned table, so a created row is
 * told by a value no found row has: it is inserted with `message_count` -1 (a found row keeps
 * its own, never negative, under the no-op update) and set to 0 right after, before anyone
 * else can see it (the row is this transaction's until commit).
 */
/** The `message_count` a row created by `lockMemberRows` holds until it is set to 0, in the same transaction. */
const CREATED_MARK = -1;

async function lockMemberRows(
  tx: DbTransaction,
  guildId: string,
  userIds: readonly string[],
): Promise<{ held: Map<string, { xp: number; level: number }>; created: Set<string> }> {
  const ids = JSON.stringify(userIds);
  const locked = await tx.execute<{
    user_id: string;
    xp: string | number;
    level: number;
    created: boolean;
  }>(sql`
    insert into member_xp (guild_id, user_id, message_count)
    select ${guildId}, t.user_id, ${CREATED_MARK}
    from jsonb_array_elements_text(${ids}::jsonb) as t(user_id)
    order by t.user_id
    on conflict (guild_id, user_id) do update set xp = member_xp.xp
    returning user_id, xp, level, message_count = ${CREATED_MARK} as created`);
  const held = new Map<string, { xp: number; level: number }>();
  const created = new Set<string>();
  for (const row of locked.rows) {
    if (row.created) created.add(row.user_id);
    else held.set(row.user_id, { xp: Number(row.xp), level: row.level });
  }
  if (created.size > 0) {
    await tx.execute(sql`
      update member_xp set message_count = 0
      where guild_id = ${guildId} and user_id = any(${sql.param([...created])}::text[])`);
  }
  return { held, created };
}

/**
 * Sets a member's XP (`set`) or adds to it (`add`, negative removes; never below 0 nor above
 * MEMBER_XP_MAX), and their level with it; a member without a row gets one. A `set` also ends
 * rewards kept from a past season: the admin chose the member's level, rewards follow it. Under the row's
 * lock, taken (or the row created) first, so an add adds whatever writes beside it.
 */
export async function changeMemberXp(
  db: Db,
  guildId: string,
  userId: string,
  change: { set: number } | { add: number },
): Promise<MemberXpChange> {
  return db.transaction(async (tx) => {
    // A member without a row gets one under the lock: a concurrent add waits, then adds on top.
    const before = (await lockMemberRows(tx, guildId, [userId])).held.get(userId);
    const previousXp = before?.xp ?? 0;
    const xp = Math.min(MEMBER_XP_MAX, Math.max(0, 'set' in change ? change.set : previousXp + change.add));
    const level = levelForTotalXp(xp, await loadLevelCurve(tx, guildId));
    const [row] = await tx
      .update(memberXp)
      .set({ xp, level, rewardsDueAt: DUE_NOW, ...('set' in change ? { keptLevel: 0 } : {}) })
      .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)))
      .returning({ dueAt: memberXp.rewardsDueAt });
    const dueAt = row?.dueAt ?? new Date();
    return { userId, xp, level, previousXp, previousLevel: before?.level ?? 0, dueAt };
  });
}

/** A member whose rewards an XP tool made due: their reward level and the mark to clear. */
export interface RewardsDue {
  userId: string;
  level: number;
  dueAt: Date;
}

/** The marked members of the guild among `among`, in user id order. */
async function rewardsDueAmong(
  db: Db,
  guildId: string,
  among: SQL | undefined,
  limit?: number,
): Promise<RewardsDue[]> {
  const query = db
    .select({ userId: memberXp.userId, level: rewardLevel, dueAt: memberXp.rewardsDueAt })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), isNotNull(memberXp.rewardsDueAt), among))
    .orderBy(memberXp.userId);
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.flatMap((row) =>
    row.dueAt ? [{ userId: row.userId, level: row.level, dueAt: row.dueAt }] : [],
  );
}

/**
 * Members whose rewards an XP tool made due, with their level and the mark to clear: at most
 * `limit`, in user id order after `after` (a job walks them a page at a time).
 */
export function loadRewardsDue(
  db: Db,
  guildId: string,
  limit: number,
  after?: string,
): Promise<RewardsDue[]> {
  return rewardsDueAmong(db, guildId, after === undefined ? undefined : gt(memberXp.userId, after), limit);
}

/** Which of `userIds` (a page of the member list) have rewards due. */
export async function loadRewardsDueOf(
  db: Db,
  guildId: string,
  userIds: readonly string[],
): Promise<RewardsDue[]> {
  if (userIds.length === 0) return [];
  return rewardsDueAmong(db, guildId, inArray(memberXp.userId, [...userIds]));
}

/** How many members' rewards are due (the apply-rewards job's progress). */
export async function countRewardsDue(db: Db, guildId: string): Promise<number> {
  const [row] = await db
    .select({ due: count() })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), isNotNull(memberXp.rewardsDueAt)));
  return row?.due ?? 0;
}

/** Clears a member's due mark if no tool changed their XP since `dueAt` was read. */
export async function clearRewardsDue(db: Db, guildId: string, userId: string, dueAt: Date): Promise<void> {
  await db
    .update(memberXp)
    .set({ rewardsDueAt: null })
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId), eq(memberXp.rewardsDueAt, dueAt)));
}

/**
 * A member whose rewards were due is not in the guild (an imported leaver): marks them as left
 * (kept if already marked), so they are not ranked until they talk again, and clears the due
 * mark, both only if no tool changed their XP since `dueAt` was read.
 */
export async function markDueMemberLeft(db: Db, guildId: string, userId: string, dueAt: Date): Promise<void> {
  await db
    .update(memberXp)
    .set({ rewardsDueAt: null, leftAt: sql`coalesce(${memberXp.leftAt}, now())` })
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId), eq(memberXp.rewardsDueAt, dueAt)));
}

/**
 * After a complete walk of the member list: every member still marked since before the walk
 * began (`before`) who was not in the list (`listed`) has left; they are marked as left in one
 * write, their marks cleared. Answers how many. A member marked again during the walk keeps
 * their mark (its stamp is later than `before`).
 */
export async function markUnlistedDueMembersLeft(
  db: Db,
  guildId: string,
  listed: ReadonlySet<string>,
  before: Date,
): Promise<number> {
  let left = 0;
  let after = '';
  for (;;) {
    const due = await db
      .select({ userId: memberXp.userId })
      .from(memberXp)
      .where(
        and(
          eq(memberXp.guildId, guildId),
          isNotNull(memberXp.rewardsDueAt),
          sql`${memberXp.rewardsDueAt} < ${before.toISOString()}::timestamptz`,
          sql`${memberXp.userId} > ${after}`,
        ),
      )
      .orderBy(memberXp.userId)
      .limit(5_000);
    if (due.length === 0) return left;
    after = due[due.length - 1]?.userId ?? after;
    const gone = due.flatMap((row) => (listed.has(row.userId) ? [] : [row.userId]));
    if (gone.length === 0) continue;
    const marked = await db
      .update(memberXp)
      .set({ rewardsDueAt: null, leftAt: sql`coalesce(${memberXp.leftAt}, now())` })
      .where(
        and(
          eq(memberXp.guildId, guildId),
          inArray(memberXp.userId, gone),
          sql`${memberXp.rewardsDueAt} < ${before.toISOString()}::timestamptz`,
        ),
      )
      .returning({ userId: memberXp.userId });
    left += marked.length;
  }
}

/** A member's reward level (leveling/members.ts `rewardLevel`), or null when they have no XP row. */
export async function loadMemberLevel(db: Db, guildId: string, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ level: rewardLevel })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)));
  return row?.level ?? null;
}

/**
 * The reward level of each of `userIds` who has an XP row (left or not: they are listed, so
 * they are here), by user id. For a page of the member list, so one read stays bounded.
 */
export async function loadLevelsOf(
  db: Db,
  guildId: string,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: memberXp.userId, level: rewardLevel })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), inArray(memberXp.userId, [...userIds])));
  return new Map(rows.map((row) => [row.userId, row.level]));
}

/**
 * How many ranked members each reward role is given to by their reward level under `mode` (what
 * deleting the reward takes from them), by reward row id. One grouped read of the levels.
 */
export async function countRewardHolders(
  db: Db,
  guildId: string,
  roles: readonly { id: number; levelRequired: number }[],
  mode: RewardMode,
): Promise<Map<number, number>> {
  const holders = new Map(roles.map((role) => [role.id, 0]));
  if (roles.length === 0) return holders;
  const levels = await db
    .select({ level: rewardLevel, members: count() })
    .from(memberXp)
    .where(rankedIn(guildId))
    .groupBy(rewardLevel);
  for (const { level, members } of levels) {
    for (const role of rewardRolesForLevel(roles, level, mode)) {
      holders.set(role.id, (holders.get(role.id) ?? 0) + members);
    }
  }
  return holders;
}

/** One member's XP from an import file, with the name the server gives them. */
export interface ImportedXp {
  userId: string;
  xp: number;
  /** The member's name on the server; null keeps the stored one. */
  username: string | null;
  /** The member's avatar hash on the server; null (or absent) keeps the stored one. */
  avatar?: string | null;
}

/** What an import wrote, and the rows as they were just before it (its undo's snapshot). */
export interface ImportWritten {
  imported: number;
  previous: XpRowsSnapshot;
}

/**
 * Writes an import in one transaction: `replace` sets each listed member's XP to the file's,
 * `add` adds it to what they have (never above MEMBER_XP_MAX). Levels come from core's curve;
 * every listed member's rewards are marked due, for `leveling.apply-rewards`. Members not listed
 * are untouched.
 *
 * Every listed row is locked first, the rows of members without one included: one upsert, in
 * user id order as every writer of member_xp takes its rows, creates the missing rows (a
 * concurrent import or chat flush then waits for this commit, and adds on top) and locks the
 * others. So an add adds whatever runs beside it, and `previous` is read under those locks:
 * exactly the rows this import overwrote, the ones it created listed as absent.
 */
export async function importMemberXp(
  db: Db,
  guildId: string,
  rows: readonly ImportedXp[],
  mode: 'replace' | 'add',
): Promise<ImportWritten> {
  if (rows.length === 0) return { imported: 0, previous: { members: [], daily: [], absent: [] } };
  // One order for every writer (as writeXpBatch), so two writers of one guild cannot deadlock.
  const sorted = [...rows].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  return db.transaction(async (tx) => {
    const { held, created } = await lockMemberRows(
      tx,
      guildId,
      sorted.map((row) => row.userId),
    );
    // The rows this statement created are not what was there before: they are absent.
    const rowsNow = await loadXpRows(
      tx,
      guildId,
      sorted.map((row) => row.userId),
    );
    const previous: XpRowsSnapshot = {
      ...rowsNow,
      members: rowsNow.members.filter((member) => !created.has(member.userId)),
      absent: [...created],
    };
    const curve = await loadLevelCurve(tx, guildId);
    const input = JSON.stringify(
      sorted.map((row) => {
        const before = mode === 'add' ? (held.get(row.userId)?.xp ?? 0) : 0;
        // As changeMemberXp: a sum past MEMBER_XP_MAX stops there.
        const xp = Math.min(MEMBER_XP_MAX, Math.max(0, before + row.xp));
        return {
          user_id: row.userId,
          xp,
          level: levelForTotalXp(xp, curve),
          username: row.username,
          avatar: row.avatar ?? null,
        };
      }),
    );
    // Every row exists and is this transaction's: the upsert only updates, in the same order.
    const written = await tx.execute(sql`
      insert into member_xp (guild_id, user_id, xp, level, username, avatar, rewards_due_at)
      select ${guildId}, t.user_id, t.xp, t.level, t.username, t.avatar, ${DUE_NOW}
      from jsonb_to_recordset(${input}::jsonb)
        as t(user_id text, xp bigint, level integer, username text, avatar text)
      order by t.user_id
      on conflict (guild_id, user_id) do update set
        xp = excluded.xp,
        level = excluded.level,
        username = coalesce(excluded.username, member_xp.username),
        avatar = coalesce(excluded.avatar, member_xp.avatar),
        rewards_due_at = excluded.rewards_due_at`);
    return { imported: written.rowCount ?? sorted.length, previous };
  });
}

/** Whether the member has an XP row (ranked or not, left or not). */
export async function hasMemberXp(db: Db, guildId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ xp: memberXp.xp })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/** Every ranked member by XP, highest first (ties by user id, as the leaderboard ranks them). */
export async function loadRankedXp(
  db: Db,
  guildId: string,
): Promise<{ userId: string; username: string | null; xp: number }[]> {
  return db
    .select({ userId: memberXp.userId, username: memberXp.username, xp: memberXp.xp })
    .from(memberXp)
    .where(rankedIn(guildId))
    .orderBy(desc(memberXp.xp), asc(memberXp.userId));
}
