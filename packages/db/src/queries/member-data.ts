/**
 * Everything Postgres holds about one Discord user across every server, read for their export
 * and erased at their request (`GET` / `DELETE /api/me/data`). `MEMBER_DATA_TABLES` names every
 * table with a user column and what happens to it, so a table added later cannot be forgotten
 * (apps/api/test/member-data.test.ts checks the schema against it).
 */
import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { guildConfigs } from '../schema/guilds.ts';
import { guildHistory } from '../schema/history.ts';
import { levelingBoosts, memberDailyXp, memberXp, pendingLevelUps } from '../schema/leveling.ts';
import { levelingSeasonMembers, levelingSeasons } from '../schema/leveling-seasons.ts';
import { memberRolePicks } from '../schema/member-picks.ts';
import { personalityAnswerEvents } from '../schema/personality.ts';
import { roleConnections } from '../schema/role-connections.ts';
import { roleMenus } from '../schema/role-menus.ts';
import { sessions } from '../schema/sessions.ts';
import { stickyRoles } from '../schema/sticky-roles.ts';
import { welcomeGreetings } from '../schema/welcome-greetings.ts';
import { eraseSeasonStandings } from './leveling/seasons.ts';
import { markErasedInBatches } from './member-xp/erasures.ts';

/**
 * Every `table.column` naming a user, and what the export and the erase do with it:
 * `exported-erased` (rows read and deleted), `exported-scrubbed` (rows read; the erase blanks
 * the name and avatar or the id, the row stays for the server), or a reason it is neither.
 */
export const MEMBER_DATA_TABLES: Readonly<Record<string, string>> = {
  'sessions.user_id': 'exported (never the token hash or Discord tokens); revoked, not deleted',
  'sign_ins.user_id':
    "not exported: a browser's sign-in holds only secrets (its refresh cookie's hash, the Discord tokens); ended with the sessions",
  'member_xp.user_id': 'exported-erased',
  'member_daily_xp.user_id': 'exported-erased',
  'pending_level_ups.user_id': 'exported-erased',
  'leveling_season_members.user_id':
    "exported-erased (their XP and level when past seasons ended); their name and avatar are also dropped from a season's top 10",
  'member_role_picks.user_id': 'exported-erased',
  'personality_answer_events.user_id':
    'exported-erased (their answers to personality questions, for insights)',
  'sticky_roles.user_id': 'exported-erased (the roles they held when leaving, kept to give back on rejoin)',
  'leveling_boosts.user_id': 'exported-erased (a boost of this member only)',
  'guild_history.actor_id':
    'exported-scrubbed (name and avatar dropped; the id stays so the entry reads "a member")',
  'guild_configs.updated_by': 'exported-scrubbed (set to null)',
  'role_menus.updated_by': 'exported-scrubbed (set to null)',
  'guild_history.undone_by':
    "not scrubbed: an id only (who undid the entry), the server's record like actor_id; the entry is exported as the actor's",
  'temp_roles.user_id':
    "not exported: a role the server gave for a time, the server's record like History's ids; ended when due, deleted with the server's data",
  'temp_roles.granted_by':
    "not exported: the id of whoever gave a temporary role, the server's record like History's ids",
  'welcome_greetings.user_id':
    "erased, not exported: the record that a welcome or goodbye was posted (so it is posted once), no content of the member's",
  'guild_setup_dismissals.dismissed_by':
    "not exported: the id of whoever hid a server's setup checklist, the server's record like History's ids",
  'role_connections.user_id':
    'erased, not exported: the Linked Roles link holds the Discord tokens (secrets) and what was pushed, which /linked-roles shows; the erase clears the connection on Discord first',
};

export async function readMemberData(db: Db, userId: string) {
  const [sessionRows, xp, daily, levelUps, picks, boosts, history, configs, menus, sticky, answers, seasons] =
    await Promise.all([
      db
        .select({
          id: sessions.id,
          username: sessions.username,
          avatar: sessions.avatar,
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
          revokedAt: sessions.revokedAt,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(sessions.createdAt),
      db.select().from(memberXp).where(eq(memberXp.userId, userId)).orderBy(memberXp.guildId),
      db
        .select()
        .from(memberDailyXp)
        .where(eq(memberDailyXp.userId, userId))
        .orderBy(memberDailyXp.guildId, memberDailyXp.day),
      db.select().from(pendingLevelUps).where(eq(pendingLevelUps.userId, userId)),
      db
        .select()
        .from(memberRolePicks)
        .where(eq(memberRolePicks.userId, userId))
        .orderBy(memberRolePicks.guildId),
      db.select().from(levelingBoosts).where(eq(levelingBoosts.userId, userId)),
      db
        .select({
          id: guildHistory.id,
          guildId: guildHistory.guildId,
          at: guildHistory.at,
          actorId: guildHistory.actorId,
          actorName: guildHistory.actorName,
          actorAvatar: guildHistory.actorAvatar,
          action: guildHistory.action,
          summary: guildHistory.summary,
          refs: guildHistory.refs,
        })
        .from(guildHistory)
        .where(historyNaming(userId))
        .orderBy(guildHistory.id),
      db
        .select({ guildId: guildConfigs.guildId, updatedAt: guildConfigs.updatedAt })
        .from(guildConfigs)
        .where(eq(guildConfigs.updatedBy, userId)),
      db
        .select({ guildId: roleMenus.guildId, id: roleMenus.id, updatedAt: roleMenus.updatedAt })
        .from(roleMenus)
        .where(eq(roleMenus.updatedBy, userId)),
      db.select().from(stickyRoles).where(eq(stickyRoles.userId, userId)).orderBy(stickyRoles.guildId),
      db
        .select()
        .from(personalityAnswerEvents)
        .where(eq(personalityAnswerEvents.userId, userId))
        .orderBy(personalityAnswerEvents.guildId, personalityAnswerEvents.id),
      db
        .select({
          guildId: levelingSeasonMembers.guildId,
          season: levelingSeasons.name,
          endedAt: levelingSeasons.endedAt,
          xp: levelingSeasonMembers.xp,
          level: levelingSeasonMembers.level,
        })
        .from(levelingSeasonMembers)
        .innerJoin(levelingSeasons, eq(levelingSeasons.id, levelingSeasonMembers.seasonId))
        .where(eq(levelingSeasonMembers.userId, userId))
        .orderBy(levelingSeasonMembers.guildId, levelingSeasons.endedAt),
    ]);
  return {
    sessions: sessionRows,
    xp,
    daily,
    levelUps,
    picks,
    boosts,
    history,
    configs,
    menus,
    sticky,
    answers,
    seasons,
  };
}

export type StoredMemberData = Awaited<ReturnType<typeof readMemberData>>;

/** History entries made by the user, or naming them among their refs. */
function historyNaming(userId: string) {
  return or(eq(guildHistory.actorId, userId), sql`${guildHistory.refs} ? ${userId}`);
}

export interface ErasedCounts {
  xp_rows: number;
  daily_rows: number;
  picks: number;
  level_ups: number;
  boosts: number;
  history_entries: number;
  settings_rows: number;
}

/**
 * Erases the user's rows in one transaction: XP, daily rows, pending level-ups, picks and
 * their own boosts deleted in every server; History entries kept but without their name and
 * avatar (as actor, and as a member the entry names: the ref keeps its kind and loses its
 * name); `updated_by` of settings cleared. `inFlightBatchIds`: the XP batches that were in
 * flight when the member's buffered XP was dropped from Redis (see member-xp/erasures.ts).
 */
export async function eraseMemberData(
  db: Db,
  userId: string,
  inFlightBatchIds: readonly string[],
): Promise<ErasedCounts> {
  return db.transaction(async (tx) => {
    await markErasedInBatches(tx, userId, inFlightBatchIds);
    const count = (result: { rowCount: number | null }) => result.rowCount ?? 0;
    const xpRows = count(await tx.delete(memberXp).where(eq(memberXp.userId, userId)));
    const dailyRows = count(await tx.delete(memberDailyXp).where(eq(memberDailyXp.userId, userId)));
    await eraseSeasonStandings(tx, userId);
    const levelUps = count(await tx.delete(pendingLevelUps).where(eq(pendingLevelUps.userId, userId)));
    const picks = count(await tx.delete(memberRolePicks).where(eq(memberRolePicks.userId, userId)));
    await tx.delete(personalityAnswerEvents).where(eq(personalityAnswerEvents.userId, userId));
    const boosts = count(await tx.delete(levelingBoosts).where(eq(levelingBoosts.userId, userId)));
    await tx.delete(stickyRoles).where(eq(stickyRoles.userId, userId));
    await tx.delete(welcomeGreetings).where(eq(welcomeGreetings.userId, userId));
    await tx.delete(roleConnections).where(eq(roleConnections.userId, userId));
    const history = count(
      await tx
        .update(guildHistory)
        .set({
          actorName: sql`case when ${guildHistory.actorId} = ${userId} then '' else ${guildHistory.actorName} end`,
          actorAvatar: sql`case when ${guildHistory.actorId} = ${userId} then null else ${guildHistory.actorAvatar} end`,
          refs: sql`case when ${guildHistory.refs} ? ${userId}
            then jsonb_set(${guildHistory.refs}, array[${userId}]::text[], jsonb_build_object('kind', 'member', 'name', ''))
            else ${guildHistory.refs} end`,
        })
        .where(historyNaming(userId)),
    );
    const configs = count(
      await tx.update(guildConfigs).set({ updatedBy: null }).where(eq(guildConfigs.updatedBy, userId)),
    );
    const menus = count(
      await tx
        .update(roleMenus)
        .set({ updatedBy: null })
        .where(and(eq(roleMenus.updatedBy, userId))),
    );
    return {
      xp_rows: xpRows,
      daily_rows: dailyRows,
      picks,
      level_ups: levelUps,
      boosts,
      history_entries: history,
      settings_rows: configs + menus,
    };
  });
}
