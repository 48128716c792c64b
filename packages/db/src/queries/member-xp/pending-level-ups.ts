import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { pendingLevelUps } from '../../schema/leveling.ts';

/** Level-ups recorded by the XP writes, claimed, announced and finished once each. */

/** A level-up recorded by `writeXpBatch`, to be announced and rewarded once. */
export interface PendingLevelUp {
  guildId: string;
  userId: string;
  level: number;
  /** The level before it (several may be crossed at once); null: not known (an older row). */
  previousLevel: number | null;
  /** The channel of the message that crossed the level (destination `current`); null unknown. */
  channelId: string | null;
  /** The member's display name as last seen (the message's `{username}`). */
  username: string | null;
  /** An announcement may already have been posted (its poster died before recording it). */
  announcing: boolean;
  /**
   * When it was recorded: with guild, member and level it names this level-up (its
   * announcement's nonce), apart from the same level reached again after XP was taken away.
   */
  recordedAt: Date;
}

/**
 * Level-ups whose deliverer's lease lapsed (it died, or failed), oldest first, now this
 * caller's for `leaseMs`. Rows another caller is claiming at the same moment are skipped.
 */
export async function claimDueLevelUps(db: Db, leaseMs: number, limit: number): Promise<PendingLevelUp[]> {
  const claimed = await db.execute<{
    guild_id: string;
    user_id: string;
    level: number;
    previous_level: number | null;
    channel_id: string | null;
    username: string | null;
    announcing: boolean;
    created_at: Date | string;
  }>(sql`
    update pending_level_ups p
    set claimed_until = now() + ${`${leaseMs} milliseconds`}::interval
    from (
      select guild_id, user_id, level from pending_level_ups
      where claimed_until < now()
      order by created_at
      limit ${limit}
      for update skip locked
    ) due
    where p.guild_id = due.guild_id and p.user_id = due.user_id and p.level = due.level
    returning p.guild_id, p.user_id, p.level, p.previous_level, p.channel_id, p.announcing, p.created_at,
      (select m.username from member_xp m where m.guild_id = p.guild_id and m.user_id = p.user_id)
        as username`);
  return claimed.rows.map((row) => ({
    guildId: row.guild_id,
    userId: row.user_id,
    level: row.level,
    previousLevel: row.previous_level,
    channelId: row.channel_id,
    username: row.username,
    announcing: row.announcing,
    recordedAt: new Date(row.created_at),
  }));
}

const levelUpKey = (up: PendingLevelUp) =>
  and(
    eq(pendingLevelUps.guildId, up.guildId),
    eq(pendingLevelUps.userId, up.userId),
    eq(pendingLevelUps.level, up.level),
  );

/** Recorded before the announcement is posted; false when the level-up is gone (delivered). */
export async function markLevelUpAnnouncing(db: Db, up: PendingLevelUp): Promise<boolean> {
  const marked = await db
    .update(pendingLevelUps)
    .set({ announcing: true })
    .where(levelUpKey(up))
    .returning({ level: pendingLevelUps.level });
  return marked.length > 0;
}

/** The level-up was announced and rewarded. */
export async function finishLevelUp(db: Db, up: PendingLevelUp): Promise<void> {
  await db.delete(pendingLevelUps).where(levelUpKey(up));
}
