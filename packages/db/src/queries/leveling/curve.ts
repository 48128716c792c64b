import { DEFAULT_LEVEL_CURVE, type LevelCurve, type XpDecay } from '@spacecadet/contract';
import { levelForTotalXp } from '@spacecadet/core';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../client.ts';
import { levelingSettings } from '../../schema/leveling.ts';
import { andGuildInShards, type ShardFilter } from '../shard-filter.ts';

/**
 * The guild's level curve where XP turns into levels in bulk: the curves of the guilds a flush
 * writes (one read per flush), the recompute of every member's level after the curve changed
 * (job `leveling.recompute-levels`), and the weekly XP decay of inactive members, one
 * statement per guild whose level floors are computed in SQL from the curve.
 */

type Reader = Pick<Db, 'select'>;
type Tx = Pick<Db, 'execute'>;

/** The level curve of each guild (the default one for a guild without settings or curve). */
export async function loadLevelCurves(
  db: Reader,
  guildIds: readonly string[],
): Promise<Map<string, LevelCurve>> {
  const ids = [...new Set(guildIds)];
  const curves = new Map<string, LevelCurve>(ids.map((id) => [id, DEFAULT_LEVEL_CURVE]));
  if (ids.length === 0) return curves;
  const rows = await db
    .select({ guildId: levelingSettings.guildId, curve: levelingSettings.levelCurve })
    .from(levelingSettings)
    .where(inArray(levelingSettings.guildId, ids));
  for (const row of rows) if (row.curve) curves.set(row.guildId, row.curve);
  return curves;
}

/** The guild's level curve. */
export async function loadLevelCurve(db: Reader, guildId: string): Promise<LevelCurve> {
  return (await loadLevelCurves(db, [guildId])).get(guildId) ?? DEFAULT_LEVEL_CURVE;
}

/**
 * `totalXpForLevel(level, curve)` in SQL, as numeric, for a level expression: the closed form
 * of the quadratic (every term divides exactly), or the table's prefix sums (levels past its
 * end add its last step each).
 */
export function levelFloorSql(curve: LevelCurve, level: SQL): SQL {
  if (curve.kind === 'quadratic') {
    const l = sql`(${level})::numeric`;
    return sql`((${curve.a}::numeric * (${l} - 1) * ${l} * (2 * ${l} - 1)) / 6 + (${curve.b}::numeric * ${l} * (${l} - 1)) / 2 + ${curve.c}::numeric * ${l})`;
  }
  const prefix = [0];
  for (const step of curve.xp) prefix.push((prefix[prefix.length - 1] ?? 0) + step);
  const n = curve.xp.length;
  const last = curve.xp[n - 1] ?? 1;
  const sums = `{${prefix.join(',')}}`;
  return sql`(case when (${level}) <= ${n}::int then (${sums}::numeric[])[(${level}) + 1] else ${prefix[n] ?? 0}::numeric + ((${level}) - ${n}::int)::numeric * ${last}::numeric end)`;
}

/** Members read and recomputed per transaction of `recomputeLevelsPage`. */
export const RECOMPUTE_PAGE = 1000;

/**
 * Recomputes the levels of one page of the guild's members (user id order, after `afterUserId`)
 * under `curve`, in one transaction holding their rows: a member whose level differs gets the
 * new one and their rewards marked due (`leveling.apply-rewards` adds or removes reward roles).
 * Nothing is announced, and a pending level-up above the new level is dropped. Answers how many it read and changed, and where the next page starts
 * (null: the last page). A page run again changes nothing.
 */
export async function recomputeLevelsPage(
  db: Db,
  guildId: string,
  curve: LevelCurve,
  afterUserId: string | null,
  limit = RECOMPUTE_PAGE,
): Promise<{ read: number; changed: number; next: string | null }> {
  return db.transaction(async (tx: DbTransaction) => {
    const rows = await tx.execute<{ user_id: string; xp: string | number; level: number }>(sql`
      select user_id, xp, level from member_xp
      where guild_id = ${guildId} ${afterUserId === null ? sql`` : sql`and user_id > ${afterUserId}`}
      order by user_id
      limit ${limit}
      for update`);
    const changed = rows.rows
      .map((row) => ({ user_id: row.user_id, level: levelForTotalXp(Number(row.xp), curve), was: row.level }))
      .filter((row) => row.level !== row.was);
    if (changed.length > 0) {
      const levels = JSON.stringify(changed.map(({ user_id, level }) => ({ user_id, level })));
      await tx.execute(sql`
        update member_xp m set level = t.level, rewards_due_at = date_trunc('milliseconds', clock_timestamp())
        from jsonb_to_recordset(${levels}::jsonb) as t(user_id text, level integer)
        where m.guild_id = ${guildId} and m.user_id = t.user_id`);
      // A level-up not yet delivered to a level the member no longer has is not announced.
      await tx.execute(sql`
        delete from pending_level_ups p
        using jsonb_to_recordset(${levels}::jsonb) as t(user_id text, level integer)
        where p.guild_id = ${guildId} and p.user_id = t.user_id and p.level > t.level`);
    }
    const last = rows.rows[rows.rows.length - 1];
    return {
      read: rows.rows.length,
      changed: changed.length,
      next: rows.rows.length < limit || !last ? null : last.user_id,
    };
  });
}

/** What one decay run took: from how many members, how much XP, and who dropped a level. */
export interface DecayRun {
  members: number;
  xpTaken: number;
  levelsDropped: number;
}

/**
 * The week's XP decay of the guild's inactive members, in one statement (then one more for the
 * levels of members it let drop below their level's floor). A member decays when they are in
 * the server, have XP, their last activity is older than `after_inactive_days` — their last
 * message that earned XP (`last_message_at`) and the last day they earned any XP at all
 * (`member_daily_xp`, which voice XP also adds to), whichever is later; a member with neither
 * counts as inactive — and no decay took from them in the last 7 UTC days (`decayed_at`). They
 * lose `percent_per_week` of their XP, rounded down to whole XP taken (core `decayedXp`), never
 * below the XP their stored level starts at unless `below_level_floor`. A run twice in a day
 * (or a week) takes once. Those below their level's floor then get their level recomputed and
 * their rewards marked due.
 */
export async function decayGuildXp(
  db: Db,
  guildId: string,
  curve: LevelCurve,
  decay: XpDecay,
): Promise<DecayRun> {
  return db.transaction(async (tx: DbTransaction) => {
    const floor = levelFloorSql(curve, sql`level`);
    const kept = sql`ceil(xp::numeric * (100 - ${decay.percent_per_week}::numeric) / 100)`;
    const newXp = decay.below_level_floor
      ? sql`greatest(0, ${kept})`
      : sql`least(xp::numeric, greatest(${kept}, ${floor}))`;
    const days = decay.after_inactive_days;
    const result = await tx.execute<{
      members: string | number;
      taken: string | number;
      dropped: unknown;
    }>(sql`
      with due as (
        select user_id, xp, level, (${newXp})::bigint as new_xp
        from member_xp
        where guild_id = ${guildId} and left_at is null and xp > 0
          and (last_message_at is null or last_message_at < now() - make_interval(days => ${days}::int))
          and (decayed_at is null
            or (decayed_at at time zone 'UTC')::date <= (now() at time zone 'UTC')::date - 7)
          and not exists (
            select 1 from member_daily_xp d
            where d.guild_id = member_xp.guild_id and d.user_id = member_xp.user_id and d.xp > 0
              and d.day > (now() at time zone 'UTC')::date - ${days}::int
          )
        order by user_id
        for update
      ), done as (
        update member_xp m set xp = due.new_xp, decayed_at = now()
        from due
        where m.guild_id = ${guildId} and m.user_id = due.user_id and due.new_xp < due.xp
        returning m.user_id, due.xp - due.new_xp as taken, due.new_xp as xp, m.level
      )
      select count(*) as members, coalesce(sum(taken), 0) as taken,
        coalesce(jsonb_agg(jsonb_build_object('user_id', user_id, 'xp', xp))
          filter (where xp < ${levelFloorSql(curve, sql`level`)}), '[]'::jsonb) as dropped
      from done`);
    const row = result.rows[0];
    const dropped = parseDropped(row?.dropped);
    if (dropped.length > 0) {
      const levels = JSON.stringify(
        dropped.map((member) => ({ user_id: member.user_id, level: levelForTotalXp(member.xp, curve) })),
      );
      await tx.execute(sql`
        update member_xp m set level = t.level, rewards_due_at = date_trunc('milliseconds', clock_timestamp())
        from jsonb_to_recordset(${levels}::jsonb) as t(user_id text, level integer)
        where m.guild_id = ${guildId} and m.user_id = t.user_id and m.level <> t.level`);
      await tx.execute(sql`
        delete from pending_level_ups p
        using jsonb_to_recordset(${levels}::jsonb) as t(user_id text, level integer)
        where p.guild_id = ${guildId} and p.user_id = t.user_id and p.level > t.level`);
    }
    return {
      members: Number(row?.members ?? 0),
      xpTaken: Number(row?.taken ?? 0),
      levelsDropped: dropped.length,
    };
  });
}

function parseDropped(value: unknown): { user_id: string; xp: number }[] {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (!Array.isArray(list)) return [];
  return list.map((item: { user_id: string; xp: string | number }) => ({
    user_id: item.user_id,
    xp: Number(item.xp),
  }));
}

/** The guilds whose XP decays (leveling on, decay set): the daily decay's schedule. */
export async function decayGuilds(db: Tx, shards?: ShardFilter): Promise<string[]> {
  const rows = await db.execute<{ guild_id: string }>(
    sql`select guild_id from leveling_settings where enabled and xp_decay is not null and xp_decay <> 'null'::jsonb${andGuildInShards(shards)}`,
  );
  return rows.rows.map((row) => row.guild_id);
}
