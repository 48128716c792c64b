import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, DbTransaction } from '../client.ts';
import { guildHistory } from '../schema/history.ts';
import {
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
} from '../schema/leveling.ts';
import { type StoredBoost, type StoredLevelingSettings, storedLevelingSettings } from './leveling.ts';

/**
 * What leveling's destructive actions (Reset Leveling, Prune leavers, deleting a reward role, an
 * XP import) keep in their history entry, and how the undo puts it back. Snapshots are JSON
 * (dates as ISO strings), the rows as they were.
 *
 * Why one file: each snapshot's shape, the query that takes it and the restore that puts it back
 * must agree field by field; kept side by side, a column added to one is seen missing in the other.
 */

/** A member's XP row as kept in a snapshot. */
export interface MemberXpSnapshot {
  userId: string;
  xp: number;
  level: number;
  messageCount: number;
  lastMessageAt: string | null;
  username: string | null;
  avatar: string | null;
  leftAt: string | null;
}

/** One day of a member's XP as kept in a snapshot. */
export interface DailyXpSnapshot {
  userId: string;
  day: string;
  xp: number;
  messages: number;
  levelUps: number;
}

/** A reward role as kept (its Discord role is made again by Sync Roles). */
export interface RewardRoleSnapshot {
  id: number;
  roleName: string;
  levelRequired: number;
  isImageRole: boolean;
}

export interface BoostSnapshot {
  id: number;
  multiplier: number;
  userId: string | null;
  expiresAt: string | null;
}

/** Members' XP rows (`members`) and their daily rows; a member listed in `absent` had no row. */
export interface XpRowsSnapshot {
  members: MemberXpSnapshot[];
  daily: DailyXpSnapshot[];
  absent?: string[];
}

/** All of a guild's leveling (Reset Leveling): null settings = never saved (the defaults). */
export interface LevelingSnapshot extends XpRowsSnapshot {
  settings: StoredLevelingSettings | null;
  roles: RewardRoleSnapshot[];
  boosts: BoostSnapshot[];
}

const iso = (at: Date | null) => at?.toISOString() ?? null;
const date = (at: string | null) => (at === null ? null : new Date(at));

function memberOf(row: typeof memberXp.$inferSelect): MemberXpSnapshot {
  return {
    userId: row.userId,
    xp: row.xp,
    level: row.level,
    messageCount: row.messageCount,
    lastMessageAt: iso(row.lastMessageAt),
    username: row.username,
    avatar: row.avatar,
    leftAt: iso(row.leftAt),
  };
}

function dailyOf(row: typeof memberDailyXp.$inferSelect): DailyXpSnapshot {
  return { userId: row.userId, day: row.day, xp: row.xp, messages: row.messages, levelUps: row.levelUps };
}

/** Rows per insert statement (Postgres caps a statement's parameters). */
const CHUNK = 1_000;

function chunks<T>(rows: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** The XP rows (running and daily) of these members; those without a row are listed as absent. */
export async function loadXpRows(
  db: Db | DbTransaction,
  guildId: string,
  userIds: readonly string[],
): Promise<XpRowsSnapshot> {
  const ids = [...new Set(userIds)];
  // An import lists up to 100,000 members: they go as one JSON parameter, not one each.
  const listed = JSON.stringify(ids);
  const among = (column: AnyPgColumn) =>
    sql`${column} in (select jsonb_array_elements_text(${listed}::jsonb))`;
  const members = await db
    .select()
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), among(memberXp.userId)));
  const daily = await db
    .select()
    .from(memberDailyXp)
    .where(and(eq(memberDailyXp.guildId, guildId), among(memberDailyXp.userId)));
  const held = new Set(members.map((row) => row.userId));
  return {
    members: members.map(memberOf),
    daily: daily.map(dailyOf),
    absent: ids.filter((id) => !held.has(id)),
  };
}

/** Everything Reset Leveling deletes. */
export async function loadLevelingSnapshot(db: Db, guildId: string): Promise<LevelingSnapshot> {
  const [settings, roles, boosts, members, daily] = await Promise.all([
    db.select().from(levelingSettings).where(eq(levelingSettings.guildId, guildId)),
    db.select().from(levelingRoles).where(eq(levelingRoles.guildId, guildId)),
    db.select().from(levelingBoosts).where(eq(levelingBoosts.guildId, guildId)),
    db.select().from(memberXp).where(eq(memberXp.guildId, guildId)),
    db.select().from(memberDailyXp).where(eq(memberDailyXp.guildId, guildId)),
  ]);
  return {
    settings: settings[0] ? storedLevelingSettings(settings[0]) : null,
    roles: roles.map((row) => ({
      id: row.id,
      roleName: row.roleName,
      levelRequired: row.levelRequired,
      isImageRole: row.isImageRole,
    })),
    boosts: boosts.map((row) => ({
      id: row.id,
      multiplier: row.multiplier,
      userId: row.userId,
      expiresAt: iso(row.expiresAt),
    })),
    members: members.map(memberOf),
    daily: daily.map(dailyOf),
  };
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * How a kept XP row meets a row of the same member that exists at undo time:
 * - `overwrite`: the kept row wins (an import's undo: the import wrote that row, undo writes
 *   back what was there before it);
 * - `keepLarger`: the member has XP again (came back, or was kept because they returned while
 *   the prune ran; after a reset, chatted since): the larger XP of the two stays, with its
 *   level, and the days are merged, each count the larger of the two. Never lowers anyone.
 */
export type XpRestoreMode = 'overwrite' | 'keepLarger';

/** The larger of the row's value now and the kept one (null counts as smaller). */
const larger = (column: AnyPgColumn) => sql`greatest(${column}, excluded.${sql.identifier(column.name)})`;

/**
 * Writes XP rows back as the snapshot holds them (a row there since as `mode` says), deletes the
 * rows of members listed as absent.
 */
async function writeXpRows(
  tx: Tx,
  guildId: string,
  snapshot: XpRowsSnapshot,
  mode: XpRestoreMode,
): Promise<void> {
  const set =
    mode === 'overwrite'
      ? {
          xp: sql`excluded.xp`,
          level: sql`excluded.level`,
          messageCount: sql`excluded.message_count`,
          lastMessageAt: sql`excluded.last_message_at`,
          username: sql`excluded.username`,
          avatar: sql`excluded.avatar`,
          leftAt: sql`excluded.left_at`,
          rewardsDueAt: sql`excluded.rewards_due_at`,
        }
      : {
          // The row there now says who the member is and whether they are here: only the
          // counts are merged.
          level: sql`case when excluded.xp > ${memberXp.xp} then excluded.level else ${memberXp.level} end`,
          xp: larger(memberXp.xp),
          messageCount: larger(memberXp.messageCount),
          lastMessageAt: larger(memberXp.lastMessageAt),
          username: sql`coalesce(${memberXp.username}, excluded.username)`,
          avatar: sql`coalesce(${memberXp.avatar}, excluded.avatar)`,
        };
  for (const part of chunks(snapshot.members)) {
    await tx
      .insert(memberXp)
      .values(
        part.map((row) => ({
          guildId,
          userId: row.userId,
          xp: row.xp,
          level: row.level,
          messageCount: row.messageCount,
          lastMessageAt: date(row.lastMessageAt),
          username: row.username,
          avatar: row.avatar,
          leftAt: date(row.leftAt),
          // Sync Roles follows every undo and brings everyone's rewards in line.
          rewardsDueAt: null,
        })),
      )
      .onConflictDoUpdate({ target: [memberXp.guildId, memberXp.userId], set });
  }
  const daySet =
    mode === 'overwrite'
      ? { xp: sql`excluded.xp`, messages: sql`excluded.messages`, levelUps: sql`excluded.level_ups` }
      : {
          xp: larger(memberDailyXp.xp),
          messages: larger(memberDailyXp.messages),
          levelUps: larger(memberDailyXp.levelUps),
        };
  for (const part of chunks(snapshot.daily)) {
    await tx
      .insert(memberDailyXp)
      .values(part.map((row) => ({ guildId, ...row })))
      .onConflictDoUpdate({
        target: [memberDailyXp.guildId, memberDailyXp.userId, memberDailyXp.day],
        set: daySet,
      });
  }
  for (const part of chunks(snapshot.absent ?? [])) {
    await tx.delete(memberXp).where(and(eq(memberXp.guildId, guildId), inArray(memberXp.userId, part)));
    await tx
      .delete(memberDailyXp)
      .where(and(eq(memberDailyXp.guildId, guildId), inArray(memberDailyXp.userId, part)));
  }
}

/** Puts members' XP rows back (Prune leavers: `keepLarger`, an import: `overwrite`), in one transaction. */
export async function restoreXpRows(
  db: Db,
  guildId: string,
  snapshot: XpRowsSnapshot,
  mode: XpRestoreMode,
): Promise<void> {
  await db.transaction((tx) => writeXpRows(tx, guildId, snapshot, mode));
}

async function insertRewardRoles(
  tx: Tx,
  guildId: string,
  roles: readonly RewardRoleSnapshot[],
): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`leveling_roles:${guildId}`}))`);
  let added = 0;
  for (const role of roles) {
    // A role added at that level since keeps it: the kept one is not put back twice.
    const [taken] = await tx
      .select({ id: levelingRoles.id })
      .from(levelingRoles)
      .where(and(eq(levelingRoles.guildId, guildId), eq(levelingRoles.levelRequired, role.levelRequired)))
      .limit(1);
    if (taken) continue;
    const rows = await tx
      .insert(levelingRoles)
      .values({ ...role, guildId, roleId: null })
      .onConflictDoNothing()
      .returning({ id: levelingRoles.id });
    added += rows.length;
  }
  return added;
}

/**
 * Puts one deleted reward role back, pending (`role_id` null: Sync Roles makes its Discord role
 * again). False when another reward role took its level since.
 */
export async function restoreRewardRole(db: Db, guildId: string, role: RewardRoleSnapshot): Promise<boolean> {
  return db.transaction(async (tx) => (await insertRewardRoles(tx, guildId, [role])) > 0);
}

/** Puts back everything Reset Leveling deleted, in one transaction (reward roles pending). */
export async function restoreLevelingSnapshot(
  db: Db,
  guildId: string,
  snapshot: LevelingSnapshot,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (snapshot.settings) {
      await tx
        .insert(levelingSettings)
        .values({ guildId, ...snapshot.settings })
        .onConflictDoUpdate({
          target: levelingSettings.guildId,
          set: { ...snapshot.settings, updatedAt: new Date() },
        });
    }
    await insertRewardRoles(tx, guildId, snapshot.roles);
    for (const part of chunks(snapshot.boosts)) {
      await tx
        .insert(levelingBoosts)
        .values(part.map((boost) => ({ ...boost, guildId, expiresAt: date(boost.expiresAt) })))
        .onConflictDoNothing();
    }
    // Members who earned XP since the reset keep it when it is more than they had.
    await writeXpRows(tx, guildId, snapshot, 'keepLarger');
  });
}

/**
 * Adds the XP rows a job is about to delete to its history entry's snapshot and marks it ready.
 * A member already kept (by an earlier attempt of the same job) keeps the first rows: a retry
 * after a partial delete no longer sees the rows it deleted, and adds only the ones it did not
 * keep yet. Does nothing when the entry is gone.
 */
export async function attachXpRows(
  db: Db,
  guildId: string,
  entryId: number,
  rows: XpRowsSnapshot,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [entry] = await tx
      .select({ snapshot: guildHistory.snapshot })
      .from(guildHistory)
      .where(and(eq(guildHistory.guildId, guildId), eq(guildHistory.id, entryId)))
      .for('update');
    if (!entry) return;
    const kept = (entry.snapshot ?? {}) as Partial<XpRowsSnapshot>;
    const members = kept.members ?? [];
    const daily = kept.daily ?? [];
    const known = new Set(members.map((row) => row.userId));
    const snapshot: XpRowsSnapshot = {
      members: [...members, ...rows.members.filter((row) => !known.has(row.userId))],
      daily: [...daily, ...rows.daily.filter((row) => !known.has(row.userId))],
    };
    await tx
      .update(guildHistory)
      .set({
        snapshot: { ...entry.snapshot, ...snapshot },
        snapshotReady: sql`coalesce(${guildHistory.snapshotReady}, now())`,
      })
      .where(and(eq(guildHistory.guildId, guildId), eq(guildHistory.id, entryId)));
  });
}

/** Deletes one boost of the guild and answers it (null when it has no such boost). */
export async function takeLevelingBoost(db: Db, guildId: string, id: number): Promise<StoredBoost | null> {
  const [row] = await db
    .delete(levelingBoosts)
    .where(and(eq(levelingBoosts.id, id), eq(levelingBoosts.guildId, guildId)))
    .returning({
      id: levelingBoosts.id,
      multiplier: levelingBoosts.multiplier,
      userId: levelingBoosts.userId,
      expiresAt: levelingBoosts.expiresAt,
    });
  return row ?? null;
}

/** One boost of the guild, or null. */
export async function loadLevelingBoost(db: Db, guildId: string, id: number): Promise<StoredBoost | null> {
  const [row] = await db
    .select({
      id: levelingBoosts.id,
      multiplier: levelingBoosts.multiplier,
      userId: levelingBoosts.userId,
      expiresAt: levelingBoosts.expiresAt,
    })
    .from(levelingBoosts)
    .where(and(eq(levelingBoosts.id, id), eq(levelingBoosts.guildId, guildId)));
  return row ?? null;
}

/** Adds a deleted boost back under its id (an undo); nothing when a boost of that id exists. */
export async function restoreLevelingBoost(db: Db, guildId: string, boost: StoredBoost): Promise<void> {
  await db
    .insert(levelingBoosts)
    .values({ guildId, ...boost })
    .onConflictDoNothing();
}

/** A member's XP (0 without a row). */
export async function loadMemberXpValue(db: Db, guildId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ xp: memberXp.xp })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)));
  return row?.xp ?? 0;
}
