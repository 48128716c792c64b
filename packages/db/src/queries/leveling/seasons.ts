import { MEMBER_XP_MAX, SEASON_TOP, type SeasonStanding } from '@spacecadet/contract';
import { levelForTotalXp } from '@spacecadet/core';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../client.ts';
import { levelingSettings } from '../../schema/leveling.ts';
import {
  type LevelingSeasonRow,
  levelingSeasonMembers,
  levelingSeasons,
} from '../../schema/leveling-seasons.ts';
import { andGuildInShards, type ShardFilter } from '../shard-filter.ts';
import { DUE_NOW } from '../xp-tools.ts';
import { loadLevelCurve } from './curve.ts';

/**
 * Seasons: ending one archives every member's XP and level (`leveling_season_members`), names
 * its top 10 (frozen), and starts XP and levels again at 0, in one transaction. Shared by the
 * API (an admin ends a season) and the worker (the schedule ends a due one). Its undo gives
 * every archived member their XP back, plus what they earned since.
 */

export interface EndSeasonInput {
  name: string;
  keepRewards: boolean;
  automatic: boolean;
  /**
   * The schedule's claim: the season ends only if the guild's season still began at this
   * instant (a second run finds it moved on and ends nothing).
   */
  ifStartedAt?: Date;
  /** Writes beside the end, in its transaction (the schedule's History entry): both or neither. */
  alongside?: (tx: DbTransaction, season: LevelingSeasonRow) => Promise<void>;
}

/**
 * Ends the guild's current season (see the file's comment). Every member_xp row of the guild
 * is locked first, in user id order as every writer of member_xp takes its rows (no deadlock
 * with a flush). `keepRewards` false marks every archived member's rewards due, so the job
 * `leveling.apply-rewards` takes the reward roles of their level (now 0) away (and rewards
 * kept from an earlier season with them); true leaves the roles as they are and stores the
 * level they were for in `kept_level`, so later level-ups and Sync Roles leave them too. Answers the season, or null when the claim (`ifStartedAt`) failed.
 */
export async function endSeason(
  db: Db,
  guildId: string,
  input: EndSeasonInput,
): Promise<LevelingSeasonRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into leveling_settings (guild_id) values (${guildId}) on conflict do nothing`,
    );
    const [settings] = await tx
      .select({ startedAt: levelingSettings.seasonStartedAt })
      .from(levelingSettings)
      .where(eq(levelingSettings.guildId, guildId))
      .for('update');
    const startedAt = settings?.startedAt ?? null;
    if (input.ifStartedAt !== undefined && startedAt?.getTime() !== input.ifStartedAt.getTime()) return null;
    await tx.execute(sql`
      select 1 from member_xp where guild_id = ${guildId} order by user_id for update`);
    const [season] = await tx
      .insert(levelingSeasons)
      .values({
        guildId,
        name: input.name,
        startedAt,
        keepRewards: input.keepRewards,
        automatic: input.automatic,
      })
      .returning();
    if (!season) throw new Error('The season row was not written');
    const archived = await tx.execute(sql`
      insert into leveling_season_members (season_id, guild_id, user_id, xp, level)
      select ${season.id}, guild_id, user_id, xp, level from member_xp
      where guild_id = ${guildId} and xp > 0`);
    const top = await topOf(tx, guildId);
    await tx.execute(sql`
      update member_xp set xp = 0, level = 0,
        ${input.keepRewards ? sql`kept_level = greatest(kept_level, level)` : sql`kept_level = 0, rewards_due_at = ${DUE_NOW}`}
      where guild_id = ${guildId} and (xp > 0 or level > 0 or kept_level > 0)`);
    await tx.execute(sql`delete from pending_level_ups where guild_id = ${guildId}`);
    await tx
      .update(levelingSettings)
      .set({ seasonStartedAt: season.endedAt, updatedAt: sql`now()` })
      .where(eq(levelingSettings.guildId, guildId));
    const [ended] = await tx
      .update(levelingSeasons)
      .set({ members: archived.rowCount ?? 0, top })
      .where(eq(levelingSeasons.id, season.id))
      .returning();
    if (ended && input.alongside) await input.alongside(tx, ended);
    return ended ?? null;
  });
}

/** The season's top 10 as they stand (ranked members: not left, with XP), names frozen. */
async function topOf(tx: DbTransaction, guildId: string): Promise<SeasonStanding[]> {
  const rows = await tx.execute<{
    user_id: string;
    username: string | null;
    avatar: string | null;
    xp: string | number;
    level: number;
  }>(sql`
    select user_id, username, avatar, xp, level from member_xp
    where guild_id = ${guildId} and xp > 0 and left_at is null
    order by xp desc, user_id asc
    limit ${SEASON_TOP}`);
  return rows.rows.map((row, index) => ({
    user_id: row.user_id,
    username: row.username,
    avatar: row.avatar,
    xp: Number(row.xp),
    level: row.level,
    rank: index + 1,
  }));
}

/** The guild's past seasons, newest first. */
export function loadSeasons(db: Pick<Db, 'select'>, guildId: string): Promise<LevelingSeasonRow[]> {
  return db
    .select()
    .from(levelingSeasons)
    .where(eq(levelingSeasons.guildId, guildId))
    .orderBy(desc(levelingSeasons.endedAt), desc(levelingSeasons.id));
}

/** How many seasons of the guild have ended (the schedule names the next "Season <n+1>"). */
export async function countSeasons(db: Pick<Db, 'select'>, guildId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(levelingSeasons)
    .where(eq(levelingSeasons.guildId, guildId));
  return row?.n ?? 0;
}

export type SeasonUndo =
  | { outcome: 'restored'; members: number }
  | { outcome: 'missing' }
  | { outcome: 'notLatest'; latest: string };

/**
 * Undoes a season's end: every archived member's XP is the archived XP plus what they earned
 * since (never above MEMBER_XP_MAX; a member whose row was pruned since gets one), their level
 * recomputed under the guild's curve and their rewards marked due; the season is deleted (its
 * members with it) and the current season began when that one did. Only the guild's latest
 * season can come back ('notLatest' names the later one).
 */
export async function undoSeasonEnd(db: Db, guildId: string, seasonId: number): Promise<SeasonUndo> {
  return db.transaction(async (tx) => {
    const [season] = await tx
      .select()
      .from(levelingSeasons)
      .where(and(eq(levelingSeasons.guildId, guildId), eq(levelingSeasons.id, seasonId)))
      .for('update');
    if (!season) return { outcome: 'missing' };
    const [latest] = await loadSeasons(tx, guildId);
    if (latest && latest.id !== season.id) return { outcome: 'notLatest', latest: latest.name };
    const archived = await tx
      .select({ userId: levelingSeasonMembers.userId, xp: levelingSeasonMembers.xp })
      .from(levelingSeasonMembers)
      .where(eq(levelingSeasonMembers.seasonId, season.id))
      .orderBy(levelingSeasonMembers.userId);
    const ids = JSON.stringify(archived.map((row) => row.userId));
    // The rows locked (the missing ones created) in user id order, as every writer takes them.
    const locked = await tx.execute<{ user_id: string; xp: string | number }>(sql`
      insert into member_xp (guild_id, user_id)
      select ${guildId}, t.user_id from jsonb_array_elements_text(${ids}::jsonb) as t(user_id)
      order by t.user_id
      on conflict (guild_id, user_id) do update set xp = member_xp.xp
      returning user_id, xp`);
    const since = new Map(locked.rows.map((row) => [row.user_id, Number(row.xp)]));
    const curve = await loadLevelCurve(tx, guildId);
    const input = JSON.stringify(
      archived.map((row) => {
        const xp = Math.min(MEMBER_XP_MAX, row.xp + (since.get(row.userId) ?? 0));
        return { user_id: row.userId, xp, level: levelForTotalXp(xp, curve) };
      }),
    );
    await tx.execute(sql`
      update member_xp m set xp = t.xp, level = t.level, rewards_due_at = ${DUE_NOW}
      from jsonb_to_recordset(${input}::jsonb) as t(user_id text, xp bigint, level integer)
      where m.guild_id = ${guildId} and m.user_id = t.user_id`);
    await tx.delete(levelingSeasons).where(eq(levelingSeasons.id, season.id));
    await tx
      .update(levelingSettings)
      .set({ seasonStartedAt: season.startedAt, updatedAt: sql`now()` })
      .where(eq(levelingSettings.guildId, guildId));
    return { outcome: 'restored', members: archived.length };
  });
}

/**
 * A member's data erase: their archived XP in every past season is deleted, and a season's top
 * 10 keeps their place (the ranks stay) without their name and avatar.
 */
export async function eraseSeasonStandings(tx: Pick<Db, 'execute'>, userId: string): Promise<void> {
  await tx.execute(sql`delete from leveling_season_members where user_id = ${userId}`);
  const named = JSON.stringify([{ user_id: userId }]);
  await tx.execute(sql`
    update leveling_seasons set top = (
      select jsonb_agg(
        case when t.e->>'user_id' = ${userId}
          then t.e || '{"username": null, "avatar": null}'::jsonb else t.e end
        order by t.ord)
      from jsonb_array_elements(leveling_seasons.top) with ordinality as t(e, ord))
    where top @> ${named}::jsonb`);
}

/** The guilds whose seasons end by themselves (leveling on, a schedule set): the hourly check's. */
export async function seasonScheduleGuilds(db: Pick<Db, 'execute'>, shards?: ShardFilter): Promise<string[]> {
  const rows = await db.execute<{ guild_id: string }>(
    sql`select guild_id from leveling_settings where enabled and season_months is not null${andGuildInShards(shards)}`,
  );
  return rows.rows.map((row) => row.guild_id);
}

/**
 * The schedule's clock for a guild whose schedule has no start yet (set before starts were
 * kept): the current season counts from now. Answers the start that holds after it.
 */
export async function startSeasonClock(db: Db, guildId: string): Promise<Date | null> {
  await db.execute(sql`
    update leveling_settings set season_started_at = now()
    where guild_id = ${guildId} and season_started_at is null`);
  const [row] = await db
    .select({ startedAt: levelingSettings.seasonStartedAt })
    .from(levelingSettings)
    .where(eq(levelingSettings.guildId, guildId));
  return row?.startedAt ?? null;
}
