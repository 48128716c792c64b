import type { RewardMode } from '@spacecadet/contract';
import { levelForTotalXp, rewardRolesForLevel } from '@spacecadet/core';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { memberXp } from '../schema/leveling.ts';
import { rankedIn } from './leveling.ts';

/**
 * The admins' XP tools (the API's `PUT`/`DELETE …/leveling/members/{userId}`, import, and the
 * worker's `/xp`): they change stored XP and mark the member's rewards as due, so the job
 * `leveling.apply-rewards` brings their reward roles in line with the new level (adding, and
 * removing those above it). XP still buffered in Redis is added on top when it is written.
 */

/** Millisecond precision, so the stamp read into a JS Date compares equal when cleared. */
export const DUE_NOW = sql`date_trunc('milliseconds', clock_timestamp())`;

export interface MemberXpChange {
  userId: string;
  xp: number;
  level: number;
  previousXp: number;
  previousLevel: number;
}

/**
 * Sets a member's XP (`set`) or adds to it (`add`, negative removes; never below 0), and their
 * level with it; a member without a row gets one. One statement, under the row's lock.
 */
export async function changeMemberXp(
  db: Db,
  guildId: string,
  userId: string,
  change: { set: number } | { add: number },
): Promise<MemberXpChange> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ xp: memberXp.xp, level: memberXp.level })
      .from(memberXp)
      .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)))
      .for('update');
    const previousXp = before?.xp ?? 0;
    const xp = Math.max(0, 'set' in change ? change.set : previousXp + change.add);
    const level = levelForTotalXp(xp);
    await tx
      .insert(memberXp)
      .values({ guildId, userId, xp, level, rewardsDueAt: DUE_NOW })
      .onConflictDoUpdate({
        target: [memberXp.guildId, memberXp.userId],
        set: { xp, level, rewardsDueAt: DUE_NOW },
      });
    return { userId, xp, level, previousXp, previousLevel: before?.level ?? 0 };
  });
}

/** Members whose rewards an XP tool made due, with their level and the mark to clear. */
export async function loadRewardsDue(
  db: Db,
  guildId: string,
  limit: number,
): Promise<{ userId: string; level: number; dueAt: Date }[]> {
  const rows = await db
    .select({ userId: memberXp.userId, level: memberXp.level, dueAt: memberXp.rewardsDueAt })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), isNotNull(memberXp.rewardsDueAt)))
    .orderBy(memberXp.userId)
    .limit(limit);
  return rows.flatMap((row) =>
    row.dueAt ? [{ userId: row.userId, level: row.level, dueAt: row.dueAt }] : [],
  );
}

/** Clears a member's due mark if no tool changed their XP since `dueAt` was read. */
export async function clearRewardsDue(db: Db, guildId: string, userId: string, dueAt: Date): Promise<void> {
  await db
    .update(memberXp)
    .set({ rewardsDueAt: null })
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId), eq(memberXp.rewardsDueAt, dueAt)));
}

/**
 * How many ranked members each reward role is given to by their level under `mode` (what
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
    .select({ level: memberXp.level, members: count() })
    .from(memberXp)
    .where(rankedIn(guildId))
    .groupBy(memberXp.level);
  for (const { level, members } of levels) {
    for (const role of rewardRolesForLevel(roles, level, mode)) {
      holders.set(role.id, (holders.get(role.id) ?? 0) + members);
    }
  }
  return holders;
}

/** One member's XP from an import file. */
export interface ImportedXp {
  userId: string;
  xp: number;
  /** The name the file gives; null keeps the stored one. */
  username: string | null;
}

/**
 * Writes an import in one statement per mode: `replace` sets each listed member's XP to the
 * file's, `add` adds it to what they have (read under the rows' locks first, so the level is
 * computed from the sum). Levels come from core's curve; every listed member's rewards are
 * marked due, for `leveling.apply-rewards`. Members not listed are untouched.
 */
export async function importMemberXp(
  db: Db,
  guildId: string,
  rows: readonly ImportedXp[],
  mode: 'replace' | 'add',
): Promise<number> {
  if (rows.length === 0) return 0;
  // One order for every writer (as writeXpBatch), so two writers of one guild cannot deadlock.
  const sorted = [...rows].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  return db.transaction(async (tx) => {
    const held = new Map<string, number>();
    if (mode === 'add') {
      const ids = JSON.stringify(sorted.map((row) => row.userId));
      const stored = await tx.execute<{ user_id: string; xp: string | number }>(sql`
        select m.user_id, m.xp from member_xp m
        where m.guild_id = ${guildId}
          and m.user_id in (select jsonb_array_elements_text(${ids}::jsonb))
        order by m.user_id
        for update`);
      for (const row of stored.rows) held.set(row.user_id, Number(row.xp));
    }
    const input = JSON.stringify(
      sorted.map((row) => {
        const xp = Math.max(0, (held.get(row.userId) ?? 0) + row.xp);
        return { user_id: row.userId, xp, level: levelForTotalXp(xp), username: row.username };
      }),
    );
    const written = await tx.execute(sql`
      insert into member_xp (guild_id, user_id, xp, level, username, rewards_due_at)
      select ${guildId}, t.user_id, t.xp, t.level, t.username, ${DUE_NOW}
      from jsonb_to_recordset(${input}::jsonb)
        as t(user_id text, xp bigint, level integer, username text)
      order by t.user_id
      on conflict (guild_id, user_id) do update set
        xp = excluded.xp,
        level = excluded.level,
        username = coalesce(excluded.username, member_xp.username),
        rewards_due_at = excluded.rewards_due_at`);
    return written.rowCount ?? sorted.length;
  });
}
