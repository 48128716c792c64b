import {
  DEFAULT_LEVEL_UP_MESSAGE,
  type LeaderboardVisibility,
  type LevelUpDestination,
  type RewardMode,
} from '@spacecadet/contract';
import {
  MAX_LEVEL_ROLES,
  MESSAGE_COOLDOWN_DEFAULT_SEC,
  XP_MULTIPLIER_DEFAULT,
  XP_PER_MESSAGE_DEFAULT,
} from '@spacecadet/core';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  type LevelingSettingsRow,
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
} from '../schema/leveling.ts';

/**
 * Leveling reads both the API and the worker make (the settings the dashboard shows are the
 * ones XP is earned with), and the writes of the dashboard's leveling pages.
 */

export interface StoredLevelingSettings {
  enabled: boolean;
  xpMultiplier: number;
  announcementChannel: string | null;
  dailyOverviewChannel: string | null;
  xpPerMessage: number;
  messageCooldownSec: number;
  noXpChannels: string[];
  noXpRoles: string[];
  levelUpMessage: string;
  levelUpDestination: LevelUpDestination;
  rewardMode: RewardMode;
  leaderboardVisibility: LeaderboardVisibility;
}

/** What a guild that never saved its leveling settings has (core's defaults, leveling off). */
export const DEFAULT_LEVELING_SETTINGS: Readonly<StoredLevelingSettings> = Object.freeze({
  enabled: false,
  xpMultiplier: XP_MULTIPLIER_DEFAULT,
  announcementChannel: null,
  dailyOverviewChannel: null,
  xpPerMessage: XP_PER_MESSAGE_DEFAULT,
  messageCooldownSec: MESSAGE_COOLDOWN_DEFAULT_SEC,
  noXpChannels: [],
  noXpRoles: [],
  levelUpMessage: DEFAULT_LEVEL_UP_MESSAGE,
  levelUpDestination: 'channel',
  rewardMode: 'stack',
  leaderboardVisibility: 'off',
});

export function storedLevelingSettings(row: LevelingSettingsRow | undefined): StoredLevelingSettings {
  if (!row) return { ...DEFAULT_LEVELING_SETTINGS, noXpChannels: [], noXpRoles: [] };
  return {
    enabled: row.enabled,
    xpMultiplier: row.xpMultiplier,
    announcementChannel: row.announcementChannel,
    dailyOverviewChannel: row.dailyOverviewChannel,
    xpPerMessage: row.xpPerMessage,
    messageCooldownSec: row.messageCooldownSec,
    noXpChannels: row.noXpChannels,
    noXpRoles: row.noXpRoles,
    levelUpMessage: row.levelUpMessage,
    levelUpDestination: row.levelUpDestination,
    rewardMode: row.rewardMode,
    leaderboardVisibility: row.leaderboardVisibility,
  };
}

export async function loadLevelingSettings(db: Db, guildId: string): Promise<StoredLevelingSettings> {
  const [row] = await db
    .select()
    .from(levelingSettings)
    .where(eq(levelingSettings.guildId, guildId))
    .limit(1);
  return storedLevelingSettings(row);
}

/** Many guilds' settings in one query (the worker reading thousands of cold guilds at once). */
export async function loadLevelingSettingsOf(
  db: Db,
  guildIds: readonly string[],
): Promise<Map<string, StoredLevelingSettings>> {
  const settings = new Map(guildIds.map((guildId) => [guildId, storedLevelingSettings(undefined)]));
  if (guildIds.length === 0) return settings;
  const rows = await db
    .select()
    .from(levelingSettings)
    .where(inArray(levelingSettings.guildId, [...guildIds]));
  for (const row of rows) settings.set(row.guildId, storedLevelingSettings(row));
  return settings;
}

/** Saves the given settings (the others keep their stored or default value); answers all of them. */
export async function saveLevelingSettings(
  db: Db,
  guildId: string,
  changes: Partial<StoredLevelingSettings>,
): Promise<StoredLevelingSettings> {
  const [row] = await db
    .insert(levelingSettings)
    .values({ guildId, ...changes })
    .onConflictDoUpdate({ target: levelingSettings.guildId, set: { ...changes, updatedAt: new Date() } })
    .returning();
  return storedLevelingSettings(row);
}

/** Back to the defaults: the settings row goes; reward roles, boosts and XP stay. */
export async function deleteLevelingSettings(db: Db, guildId: string): Promise<void> {
  await db.delete(levelingSettings).where(eq(levelingSettings.guildId, guildId));
}

/** Turns leveling on: adding a reward role or a boost does, as the dashboard expects. */
export async function enableLeveling(db: Db, guildId: string): Promise<void> {
  await db
    .insert(levelingSettings)
    .values({ guildId, enabled: true })
    .onConflictDoUpdate({ target: levelingSettings.guildId, set: { enabled: true, updatedAt: new Date() } });
}

/**
 * The members a guild ranks: those with XP who did not leave. A member an admin reset to 0 XP
 * keeps a row (its reward roles are still to be removed) but is not ranked.
 */
export function rankedIn(guildId: string) {
  return and(eq(memberXp.guildId, guildId), isNull(memberXp.leftAt), gt(memberXp.xp, 0));
}

export interface LeaderboardEntry {
  userId: string;
  username: string | null;
  avatar: string | null;
  xp: number;
  /** 1-based position by XP; ties are ordered by user id, the same way in every read. */
  rank: number;
}

/**
 * A page of the guild's members by XP, highest first, without members who left; `total` counts
 * every ranked member. The API's leaderboard and the `/leaderboard` command read this.
 */
export async function loadLeaderboard(
  db: Db,
  guildId: string,
  page: { limit: number; offset: number },
): Promise<{ members: LeaderboardEntry[]; total: number }> {
  const ranked = rankedIn(guildId);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        userId: memberXp.userId,
        username: memberXp.username,
        avatar: memberXp.avatar,
        xp: memberXp.xp,
      })
      .from(memberXp)
      .where(ranked)
      .orderBy(desc(memberXp.xp), asc(memberXp.userId))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(memberXp).where(ranked),
  ]);
  return {
    members: rows.map((row, index) => ({ ...row, rank: page.offset + index + 1 })),
    total: counted?.n ?? 0,
  };
}

/** One member's XP and rank in the guild, or null when they have none (or left, or were reset to 0). */
export async function loadMemberRank(
  db: Db,
  guildId: string,
  userId: string,
): Promise<LeaderboardEntry | null> {
  const [row] = await db
    .select({
      userId: memberXp.userId,
      username: memberXp.username,
      avatar: memberXp.avatar,
      xp: memberXp.xp,
      leftAt: memberXp.leftAt,
    })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)))
    .limit(1);
  if (!row || row.leftAt !== null || row.xp <= 0) return null;
  const [ahead] = await db
    .select({ n: count() })
    .from(memberXp)
    .where(
      and(
        rankedIn(guildId),
        or(gt(memberXp.xp, row.xp), and(eq(memberXp.xp, row.xp), lt(memberXp.userId, row.userId))),
      ),
    );
  const { leftAt: _left, ...entry } = row;
  return { ...entry, rank: (ahead?.n ?? 0) + 1 };
}

export interface StoredBoost {
  id: number;
  multiplier: number;
  /** null = server-wide, `-role:<id>` = a role's boost, else one member's (core's `boostTarget`). */
  userId: string | null;
  expiresAt: Date | null;
}

const storedBoostColumns = {
  id: levelingBoosts.id,
  multiplier: levelingBoosts.multiplier,
  userId: levelingBoosts.userId,
  expiresAt: levelingBoosts.expiresAt,
};

/**
 * The guild's boosts, oldest first, expired ones included (core's `activeBoostMultiplier` skips
 * those).
 */
export async function loadLevelingBoosts(db: Db, guildId: string): Promise<StoredBoost[]> {
  return db
    .select(storedBoostColumns)
    .from(levelingBoosts)
    .where(eq(levelingBoosts.guildId, guildId))
    .orderBy(asc(levelingBoosts.id));
}

/** Many guilds' boosts in one query, each guild's oldest first (every guild asked has an entry). */
export async function loadLevelingBoostsOf(
  db: Db,
  guildIds: readonly string[],
): Promise<Map<string, StoredBoost[]>> {
  const boosts = new Map(guildIds.map((guildId): [string, StoredBoost[]] => [guildId, []]));
  if (guildIds.length === 0) return boosts;
  const rows = await db
    .select({ guildId: levelingBoosts.guildId, ...storedBoostColumns })
    .from(levelingBoosts)
    .where(inArray(levelingBoosts.guildId, [...guildIds]))
    .orderBy(asc(levelingBoosts.id));
  for (const { guildId, ...boost } of rows) boosts.get(guildId)?.push(boost);
  return boosts;
}

export async function addLevelingBoost(
  db: Db,
  guildId: string,
  boost: Omit<StoredBoost, 'id'>,
): Promise<StoredBoost> {
  const [row] = await db
    .insert(levelingBoosts)
    .values({ guildId, ...boost })
    .returning(storedBoostColumns);
  if (!row) throw new Error('Boost insert returned no row');
  return row;
}

/** Deletes one boost of the guild; false when it has no such boost. */
export async function deleteLevelingBoost(db: Db, guildId: string, id: number): Promise<boolean> {
  const deleted = await db
    .delete(levelingBoosts)
    .where(and(eq(levelingBoosts.id, id), eq(levelingBoosts.guildId, guildId)))
    .returning({ id: levelingBoosts.id });
  return deleted.length > 0;
}

/** Deletes the guild's boosts that expired before `cutoff`. */
export async function deleteBoostsExpiredBefore(db: Db, guildId: string, cutoff: Date): Promise<void> {
  await db
    .delete(levelingBoosts)
    .where(and(eq(levelingBoosts.guildId, guildId), lt(levelingBoosts.expiresAt, cutoff)));
}

/** The Postgres channel migration 0006's triggers announce a guild's leveling setup changes on. */
export const LEVELING_SETUP_CHANNEL = 'leveling_setup_changed';

/** A level reward role as the worker syncs and grants it; `roleId` null = pending. */
export interface StoredLevelingRole {
  id: number;
  roleName: string;
  levelRequired: number;
  isImageRole: boolean;
  roleId: string | null;
}

const storedRoleColumns = {
  id: levelingRoles.id,
  roleName: levelingRoles.roleName,
  levelRequired: levelingRoles.levelRequired,
  isImageRole: levelingRoles.isImageRole,
  roleId: levelingRoles.roleId,
};

/** The guild's reward roles, lowest level first (then oldest first). */
export async function loadLevelingRoles(db: Db, guildId: string): Promise<StoredLevelingRole[]> {
  return db
    .select(storedRoleColumns)
    .from(levelingRoles)
    .where(eq(levelingRoles.guildId, guildId))
    .orderBy(asc(levelingRoles.levelRequired), asc(levelingRoles.id));
}

/** One reward role of the guild, or null. */
export async function loadLevelingRole(
  db: Db,
  guildId: string,
  id: number,
): Promise<StoredLevelingRole | null> {
  const [row] = await db.select(storedRoleColumns).from(levelingRoles).where(ofGuildRole(guildId, id));
  return row ?? null;
}

function ofGuildRole(guildId: string, id: number) {
  return and(eq(levelingRoles.id, id), eq(levelingRoles.guildId, guildId));
}

/** The reward role of the guild at this level, other than `except`, if any. */
async function roleAtLevel(
  tx: Pick<Db, 'select'>,
  guildId: string,
  level: number,
  except?: number,
): Promise<StoredLevelingRole | undefined> {
  const [row] = await tx
    .select(storedRoleColumns)
    .from(levelingRoles)
    .where(
      and(
        eq(levelingRoles.guildId, guildId),
        eq(levelingRoles.levelRequired, level),
        except === undefined ? undefined : ne(levelingRoles.id, except),
      ),
    )
    .limit(1);
  return row;
}

export type NewLevelingRole = Pick<StoredLevelingRole, 'roleName' | 'levelRequired' | 'isImageRole'>;

/**
 * Adds a pending reward role, unless the guild has `MAX_LEVEL_ROLES` already (`full`) or one at
 * this level (`levelTaken`, with that role).
 */
export async function addLevelingRole(
  db: Db,
  guildId: string,
  role: NewLevelingRole,
): Promise<
  | { outcome: 'added'; role: StoredLevelingRole }
  | { outcome: 'full' }
  | { outcome: 'levelTaken'; holder: StoredLevelingRole }
> {
  return db.transaction(async (tx) => {
    await lockGuildRoles(tx, guildId);
    const [existing] = await tx
      .select({ n: count() })
      .from(levelingRoles)
      .where(eq(levelingRoles.guildId, guildId));
    if ((existing?.n ?? 0) >= MAX_LEVEL_ROLES) return { outcome: 'full' };
    const holder = await roleAtLevel(tx, guildId, role.levelRequired);
    if (holder) return { outcome: 'levelTaken', holder };
    const [row] = await tx
      .insert(levelingRoles)
      .values({ guildId, ...role })
      .returning(storedRoleColumns);
    if (!row) throw new Error('Level role insert returned no row');
    return { outcome: 'added', role: row };
  });
}

/**
 * Changes a reward role, unless it is gone (`missing`) or another role holds the new level
 * (`levelTaken`, with that role). `before` and `after` let the caller see what changed.
 */
export async function updateLevelingRole(
  db: Db,
  guildId: string,
  id: number,
  changes: Partial<NewLevelingRole>,
): Promise<
  | { outcome: 'updated'; before: StoredLevelingRole; after: StoredLevelingRole }
  | { outcome: 'missing' }
  | { outcome: 'levelTaken'; holder: StoredLevelingRole }
> {
  return db.transaction(async (tx) => {
    await lockGuildRoles(tx, guildId);
    const [current] = await tx.select(storedRoleColumns).from(levelingRoles).where(ofGuildRole(guildId, id));
    if (!current) return { outcome: 'missing' };
    if (changes.levelRequired !== undefined && changes.levelRequired !== current.levelRequired) {
      const holder = await roleAtLevel(tx, guildId, changes.levelRequired, id);
      if (holder) return { outcome: 'levelTaken', holder };
    }
    if (Object.keys(changes).length === 0) return { outcome: 'updated', before: current, after: current };
    const [updated] = await tx
      .update(levelingRoles)
      .set(changes)
      .where(ofGuildRole(guildId, id))
      .returning(storedRoleColumns);
    if (!updated) return { outcome: 'missing' };
    return { outcome: 'updated', before: current, after: updated };
  });
}

export async function deleteLevelingRole(db: Db, guildId: string, id: number): Promise<void> {
  await db.delete(levelingRoles).where(ofGuildRole(guildId, id));
}

/** One guild's reward-role writes at a time, so the cap and the one-role-per-level rule hold. */
async function lockGuildRoles(tx: Pick<Db, 'execute'>, guildId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`leveling_roles:${guildId}`}))`);
}

/**
 * Deletes all of a guild's leveling data in one transaction: settings, reward roles, boosts and
 * members' XP. Returns the reward roles deleted, whose Discord roles the caller may delete.
 */
export async function deleteLevelingData(db: Db, guildId: string): Promise<StoredLevelingRole[]> {
  return db.transaction(async (tx) => {
    await lockGuildRoles(tx, guildId);
    await tx.delete(levelingSettings).where(eq(levelingSettings.guildId, guildId));
    const roles = await tx
      .delete(levelingRoles)
      .where(eq(levelingRoles.guildId, guildId))
      .returning(storedRoleColumns);
    await tx.delete(levelingBoosts).where(eq(levelingBoosts.guildId, guildId));
    await tx.delete(memberXp).where(eq(memberXp.guildId, guildId));
    await tx.delete(memberDailyXp).where(eq(memberDailyXp.guildId, guildId));
    return roles;
  });
}

/** Records the Discord role made for a reward role; false when the reward role is gone. */
export async function setLevelingRoleId(
  db: Db,
  guildId: string,
  id: number,
  roleId: string | null,
): Promise<boolean> {
  const rows = await db
    .update(levelingRoles)
    .set({ roleId })
    .where(ofGuildRole(guildId, id))
    .returning({ id: levelingRoles.id });
  return rows.length > 0;
}

/** Level of every member (not marked as left) at `minLevel` or above, by user id. */
export async function loadMemberLevels(
  db: Db,
  guildId: string,
  minLevel: number,
): Promise<Map<string, number>> {
  const rows = await db
    .select({ userId: memberXp.userId, level: memberXp.level })
    .from(memberXp)
    .where(
      and(eq(memberXp.guildId, guildId), isNull(memberXp.leftAt), sql`${memberXp.level} >= ${minLevel}`),
    );
  return new Map(rows.map((row) => [row.userId, row.level]));
}

/** Guilds whose daily overview should be posted: leveling on and an overview channel set. */
export async function dailyOverviewGuilds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ guildId: levelingSettings.guildId })
    .from(levelingSettings)
    .where(and(eq(levelingSettings.enabled, true), isNotNull(levelingSettings.dailyOverviewChannel)));
  return rows.map((row) => row.guildId);
}

/** Whether these settings call for a daily overview (see `dailyOverviewGuilds`). */
export function wantsDailyOverview(settings: StoredLevelingSettings): boolean {
  return settings.enabled && settings.dailyOverviewChannel !== null;
}

export interface DailyOverviewEarner {
  userId: string;
  username: string | null;
  /** XP gained that day. */
  xp: number;
  /** The member's level now (0 when their XP row is gone). */
  level: number;
}

export interface StoredDailyOverview {
  day: string;
  top: DailyOverviewEarner[];
  /** Members with a row for that day (they sent a message that counted, or earned XP). */
  activeMembers: number;
  messages: number;
  levelUps: number;
  xp: number;
}

/** One UTC day (`YYYY-MM-DD`) of a guild's activity: totals and the `limit` top earners. */
export async function loadDailyOverview(
  db: Db,
  guildId: string,
  day: string,
  limit: number,
): Promise<StoredDailyOverview> {
  const ofDay = and(eq(memberDailyXp.guildId, guildId), eq(memberDailyXp.day, day));
  const [top, [totals]] = await Promise.all([
    db
      .select({
        userId: memberDailyXp.userId,
        username: memberXp.username,
        xp: memberDailyXp.xp,
        level: sql<number>`coalesce(${memberXp.level}, 0)`.mapWith(Number),
      })
      .from(memberDailyXp)
      .leftJoin(
        memberXp,
        and(eq(memberXp.guildId, memberDailyXp.guildId), eq(memberXp.userId, memberDailyXp.userId)),
      )
      .where(and(ofDay, gt(memberDailyXp.xp, 0)))
      .orderBy(desc(memberDailyXp.xp), asc(memberDailyXp.userId))
      .limit(limit),
    db
      .select({
        activeMembers: count(),
        messages: sql<number>`coalesce(sum(${memberDailyXp.messages}), 0)`.mapWith(Number),
        levelUps: sql<number>`coalesce(sum(${memberDailyXp.levelUps}), 0)`.mapWith(Number),
        xp: sql<number>`coalesce(sum(${memberDailyXp.xp}), 0)`.mapWith(Number),
      })
      .from(memberDailyXp)
      .where(ofDay),
  ]);
  return {
    day,
    top,
    activeMembers: totals?.activeMembers ?? 0,
    messages: totals?.messages ?? 0,
    levelUps: totals?.levelUps ?? 0,
    xp: totals?.xp ?? 0,
  };
}

/** Whether the guild has any day of chat recorded before `day` (a previous day to report). */
export async function hasDailyActivityBefore(db: Db, guildId: string, day: string): Promise<boolean> {
  const [row] = await db
    .select({ day: memberDailyXp.day })
    .from(memberDailyXp)
    .where(and(eq(memberDailyXp.guildId, guildId), lt(memberDailyXp.day, day)))
    .limit(1);
  return row !== undefined;
}

/** Every member with XP in the guild and when they were seen leaving (null = not seen). */
export async function loadXpMembers(
  db: Db,
  guildId: string,
): Promise<Array<{ userId: string; leftAt: Date | null }>> {
  return db
    .select({ userId: memberXp.userId, leftAt: memberXp.leftAt })
    .from(memberXp)
    .where(eq(memberXp.guildId, guildId));
}

/** Clears the leave mark of members found in the guild again (marked before `before`). */
export async function unmarkLeft(
  db: Db,
  guildId: string,
  userIds: readonly string[],
  before: Date,
): Promise<number> {
  if (userIds.length === 0) return 0;
  const rows = await db
    .update(memberXp)
    .set({ leftAt: null })
    .where(
      and(eq(memberXp.guildId, guildId), inArray(memberXp.userId, [...userIds]), lt(memberXp.leftAt, before)),
    )
    .returning({ userId: memberXp.userId });
  return rows.length;
}

/**
 * Deletes the XP (running and daily) of members who left. `onlyIfMarkedBefore` deletes a row
 * only while it still carries a leave mark older than that time, so a member whose return was
 * recorded meanwhile keeps their XP. Returns the user ids whose XP was deleted.
 */
export async function deleteMemberXp(
  db: Db,
  guildId: string,
  userIds: readonly string[],
  onlyIfMarkedBefore?: Date,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(memberXp)
      .where(
        and(
          eq(memberXp.guildId, guildId),
          inArray(memberXp.userId, [...userIds]),
          onlyIfMarkedBefore ? lt(memberXp.leftAt, onlyIfMarkedBefore) : undefined,
        ),
      )
      .returning({ userId: memberXp.userId });
    const ids = deleted.map((row) => row.userId);
    if (ids.length > 0) {
      await tx
        .delete(memberDailyXp)
        .where(and(eq(memberDailyXp.guildId, guildId), inArray(memberDailyXp.userId, ids)));
    }
    return ids;
  });
}
