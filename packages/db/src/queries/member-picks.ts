import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { memberRolePicks } from '../schema/member-picks.ts';

/**
 * Members' picks on the bot's panels (`member_role_picks`), kept so a role the bot recreates
 * after an admin deleted it goes back to the members who held it.
 */

/** `scope` of a colour pick: a member holds one colour (or shade) at a time. */
export const COLOR_PICK_SCOPE = 'color';
/** `scope` of the answers to one personality question. */
export const personalityPickScope = (questionType: string) => `personality:${questionType}`;

export interface MemberPick {
  guildId: string;
  userId: string;
  scope: string;
  /** Everything the member holds in the scope now (empty: nothing, e.g. after Remove color). */
  targetKeys: readonly string[];
}

/**
 * Replaces each member's picks of each scope with the given ones, all in one transaction of two
 * statements whatever the count (the worker batches clicks). Later entries of the same member and
 * scope win.
 */
export async function writeMemberPicks(db: Db, picks: readonly MemberPick[]): Promise<void> {
  const latest = new Map<string, MemberPick>();
  for (const pick of picks) latest.set(`${pick.guildId}:${pick.userId}:${pick.scope}`, pick);
  if (latest.size === 0) return;
  const cleared = [...latest.values()];
  const kept = cleared.flatMap((pick) => pick.targetKeys.map((targetKey) => ({ ...pick, targetKey })));
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      delete from member_role_picks p
      using unnest(${pgArray(cleared.map((p) => p.guildId))}::text[],
                   ${pgArray(cleared.map((p) => p.userId))}::text[],
                   ${pgArray(cleared.map((p) => p.scope))}::text[]) as i(guild_id, user_id, scope)
      where p.guild_id = i.guild_id and p.user_id = i.user_id and p.scope = i.scope`);
    if (kept.length === 0) return;
    await tx.execute(sql`
      insert into member_role_picks (guild_id, user_id, scope, target_key)
      select * from unnest(${pgArray(kept.map((p) => p.guildId))}::text[],
                           ${pgArray(kept.map((p) => p.userId))}::text[],
                           ${pgArray(kept.map((p) => p.scope))}::text[],
                           ${pgArray(kept.map((p) => p.targetKey))}::text[])
      on conflict do nothing`);
  });
}

/** A JS array as one Postgres array parameter (drizzle would spread it into a list). */
function pgArray(values: readonly string[]) {
  return sql.param([...values]);
}

/** Who picked each of these targets (one row per member and target). */
export async function membersWithPicks(
  db: Db,
  guildId: string,
  targetKeys: readonly string[],
): Promise<Array<{ userId: string; targetKey: string }>> {
  if (targetKeys.length === 0) return [];
  return db
    .select({ userId: memberRolePicks.userId, targetKey: memberRolePicks.targetKey })
    .from(memberRolePicks)
    .where(and(eq(memberRolePicks.guildId, guildId), inArray(memberRolePicks.targetKey, [...targetKeys])))
    .orderBy(memberRolePicks.targetKey, memberRolePicks.userId);
}

/** A member left the server (Discord took their roles): their picks go too. */
export async function forgetMemberPicks(db: Db, guildId: string, userId: string): Promise<void> {
  await db
    .delete(memberRolePicks)
    .where(and(eq(memberRolePicks.guildId, guildId), eq(memberRolePicks.userId, userId)));
}

/** One pick of a member that can no longer be given (they left, say). */
export async function forgetMemberPick(
  db: Db,
  guildId: string,
  userId: string,
  targetKey: string,
): Promise<void> {
  await db
    .delete(memberRolePicks)
    .where(
      and(
        eq(memberRolePicks.guildId, guildId),
        eq(memberRolePicks.userId, userId),
        eq(memberRolePicks.targetKey, targetKey),
      ),
    );
}

/** A reset: every pick of the feature's scopes in the guild goes (`color`, `personality:`). */
export async function forgetFeaturePicks(
  db: Db | DbTransaction,
  guildId: string,
  scopePrefix: string,
): Promise<void> {
  await db
    .delete(memberRolePicks)
    .where(and(eq(memberRolePicks.guildId, guildId), like(memberRolePicks.scope, `${scopePrefix}%`)));
}

/**
 * `scope` of a member's pick of one role on a role menu (a reaction panel): one scope per role,
 * so recording a reaction never needs the member's other picks of the menu. `menuPickScope(id)`
 * without a role is the prefix of every pick of the menu.
 */
export const menuPickScope = (menuId: string, roleId?: string) =>
  roleId === undefined ? `menu:${menuId}:` : `menu:${menuId}:${roleId}`;

/** Every pick in the guild whose scope starts with `scopePrefix` (a menu's picks). */
export async function picksWithScopePrefix(
  db: Db,
  guildId: string,
  scopePrefix: string,
): Promise<Array<{ userId: string; scope: string; targetKey: string }>> {
  return db
    .select({
      userId: memberRolePicks.userId,
      scope: memberRolePicks.scope,
      targetKey: memberRolePicks.targetKey,
    })
    .from(memberRolePicks)
    .where(and(eq(memberRolePicks.guildId, guildId), like(memberRolePicks.scope, `${scopePrefix}%`)))
    .orderBy(memberRolePicks.userId, memberRolePicks.scope);
}

/** The picks of these exact scopes, of every member (a re-posted message's rows). */
export async function forgetScopes(db: Db, guildId: string, scopes: readonly string[]): Promise<void> {
  if (scopes.length === 0) return;
  await db
    .delete(memberRolePicks)
    .where(and(eq(memberRolePicks.guildId, guildId), inArray(memberRolePicks.scope, [...scopes])));
}

/** Which bot feature repairs a managed role or message. */
export type ManagedFeature = 'color' | 'personality' | 'leveling' | 'menus';

export interface ManagedIds {
  /** Discord role id → the feature that made it. */
  roles: ReadonlyMap<string, ManagedFeature>;
  /** Discord message id → the feature that posted it (the colour panel, question messages). */
  messages: ReadonlyMap<string, ManagedFeature>;
}

/**
 * Every Discord role and message the bot manages in the guild, in one query: colour and shade
 * roles, the colour panel, the roles and messages of enabled personality questions, and reward
 * roles, and the messages of role menus (the reaction panels). The worker keeps it in memory to tell at once whether a deleted role or message was one
 * of them.
 */
export async function loadManagedIds(db: Db, guildId: string): Promise<ManagedIds> {
  const result = await db.execute<{ feature: ManagedFeature; kind: 'role' | 'message'; id: string }>(sql`
    select 'color' as feature, 'role' as kind, role_id as id from colors
      where guild_id = ${guildId} and role_id is not null
    union all select 'color', 'role', role_id from color_shades
      where guild_id = ${guildId} and role_id is not null
    union all select 'color', 'message', message_id from color_panels
      where guild_id = ${guildId} and message_id is not null
    union all select 'personality', 'role', o.role_id from personality_options o
      join personality_questions q on q.id = o.question_id
      where o.guild_id = ${guildId} and o.role_id is not null and q.is_enabled
    union all select 'personality', 'message', message_id from personality_questions
      where guild_id = ${guildId} and message_id is not null and is_enabled
    union all select 'leveling', 'role', role_id from leveling_roles
      where guild_id = ${guildId} and role_id is not null
    union all select 'menus', 'message', unnest(message_ids) from role_menus
      where guild_id = ${guildId}`);
  const roles = new Map<string, ManagedFeature>();
  const messages = new Map<string, ManagedFeature>();
  for (const row of result.rows) (row.kind === 'role' ? roles : messages).set(row.id, row.feature);
  return { roles, messages };
}
