/**
 * Discord Linked Roles: each linked user's role connection (the server whose level it shows,
 * their tokens sealed as a sign-in's are) and what is due to be pushed to Discord. XP batches
 * mark a linked member's row due when their level changes there (`markRoleConnectionsDue`); the
 * worker's push job reads due rows with the level and XP to show and records what it pushed.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { type RoleConnectionRow, roleConnections } from '../schema/role-connections.ts';
import { inShards, type ShardFilter } from './shard-filter.ts';

type Tx = Pick<Db, 'execute'>;

/**
 * Marks the role connections showing these members' levels as due, at the time of the change: a
 * push that read the values before it leaves the newer mark (see `recordRoleConnectionPushed`).
 * Cheap when nobody is linked: one join on the primary key.
 */
export async function markRoleConnectionsDue(
  tx: Tx,
  members: ReadonlyArray<{ guildId: string; userId: string }>,
): Promise<void> {
  if (members.length === 0) return;
  const keys = JSON.stringify(members.map((m) => ({ guild_id: m.guildId, user_id: m.userId })));
  await tx.execute(sql`
    update role_connections r set push_due_at = clock_timestamp()
    from jsonb_to_recordset(${keys}::jsonb) as t(guild_id text, user_id text)
    where r.user_id = t.user_id and r.guild_id = t.guild_id`);
}

/** The servers at least one linked member shows (the push job's schedule runs for these). */
export async function linkedGuilds(db: Db, shards?: ShardFilter): Promise<string[]> {
  const rows = await db
    .selectDistinct({ guildId: roleConnections.guildId })
    .from(roleConnections)
    .where(and(isNotNull(roleConnections.guildId), inShards(roleConnections.guildId, shards)));
  return rows.flatMap((r) => (r.guildId ? [r.guildId] : []));
}

export interface DueRoleConnection {
  userId: string;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  tokenExpiresAt: Date;
  /** Null when no XP batch marked it but the level differs from what was pushed (an XP tool, a reset). */
  pushDueAt: Date | null;
  /** The member's level and XP in the guild now (0 when they have no XP row). */
  level: number;
  xp: number;
}

/**
 * Up to `limit` of the guild's due connections, oldest mark first, with the level and XP to show:
 * the ones an XP batch marked, and any whose level differs from what Discord was sent (a level
 * changed by an XP tool, a reset or a new curve is pushed too, without those writers knowing).
 */
export async function loadDueRoleConnections(
  db: Db,
  guildId: string,
  limit: number,
): Promise<DueRoleConnection[]> {
  const rows = await db.execute<{
    user_id: string;
    access_token_enc: string;
    refresh_token_enc: string | null;
    token_expires_at: Date | string;
    push_due_at: Date | string | null;
    level: number | null;
    xp: string | number | null;
  }>(sql`
    select r.user_id, r.access_token_enc, r.refresh_token_enc, r.token_expires_at, r.push_due_at, m.level, m.xp
    from role_connections r
    left join member_xp m on m.guild_id = r.guild_id and m.user_id = r.user_id
    where r.guild_id = ${guildId}
      and (r.push_due_at is not null or r.pushed_level is distinct from coalesce(m.level, 0))
    order by r.push_due_at nulls last, r.user_id
    limit ${limit}`);
  return rows.rows.map((r) => ({
    userId: r.user_id,
    accessTokenEnc: r.access_token_enc,
    refreshTokenEnc: r.refresh_token_enc,
    tokenExpiresAt: new Date(r.token_expires_at),
    pushDueAt: r.push_due_at === null ? null : new Date(r.push_due_at),
    level: r.level ?? 0,
    xp: Number(r.xp ?? 0),
  }));
}

/** Records what Discord now holds; clears the mark unless the level changed again meanwhile. */
export async function recordRoleConnectionPushed(
  db: Db,
  userId: string,
  pushed: { level: number; xp: number; dueAt: Date | null },
): Promise<void> {
  await db
    .update(roleConnections)
    .set({
      pushedLevel: pushed.level,
      pushedXp: pushed.xp,
      pushedAt: sql`now()`,
      // Dates in JS carry milliseconds, Postgres microseconds.
      pushDueAt: sql`case when date_trunc('milliseconds', ${roleConnections.pushDueAt}) <= ${pushed.dueAt ?? new Date(0)} then null else ${roleConnections.pushDueAt} end`,
    })
    .where(eq(roleConnections.userId, userId));
}

/** Keeps refreshed tokens (already sealed). */
export async function storeRoleConnectionTokens(
  db: Db,
  userId: string,
  tokens: { accessTokenEnc: string; refreshTokenEnc: string | null; expiresAt: Date },
): Promise<void> {
  await db
    .update(roleConnections)
    .set({
      accessTokenEnc: tokens.accessTokenEnc,
      refreshTokenEnc: tokens.refreshTokenEnc,
      tokenExpiresAt: tokens.expiresAt,
    })
    .where(eq(roleConnections.userId, userId));
}

/** Forgets a connection whose grant Discord no longer honours (revoked): nothing can be pushed to it. */
export async function dropRoleConnection(
  db: Db,
  userId: string,
  expected: { accessTokenEnc: string },
): Promise<void> {
  await db
    .delete(roleConnections)
    .where(
      and(eq(roleConnections.userId, userId), eq(roleConnections.accessTokenEnc, expected.accessTokenEnc)),
    );
}

/** The user's link, if any. */
export async function loadRoleConnection(db: Db, userId: string): Promise<RoleConnectionRow | undefined> {
  const [row] = await db.select().from(roleConnections).where(eq(roleConnections.userId, userId));
  return row;
}

/** The servers a user may show: they have XP there (and have not left) and the bot is in it; highest level first. */
export async function linkableServers(
  db: Db,
  userId: string,
): Promise<Array<{ guildId: string; name: string; level: number; xp: number }>> {
  const rows = await db.execute<{ guild_id: string; name: string; level: number; xp: string | number }>(sql`
    select m.guild_id, g.name, m.level, m.xp
    from member_xp m join bot_guilds g on g.guild_id = m.guild_id
    where m.user_id = ${userId} and m.left_at is null
    order by m.level desc, m.xp desc, g.name
    limit 100`);
  return rows.rows.map((r) => ({ guildId: r.guild_id, name: r.name, level: r.level, xp: Number(r.xp) }));
}

/**
 * Stores a (re)link's tokens, already sealed. A relink keeps the server picked before and is
 * due at once (Discord's connection is the new grant's); a first link shows `guildId`, if given.
 */
export async function saveRoleConnection(
  db: Db,
  link: {
    userId: string;
    guildId: string | null;
    accessTokenEnc: string;
    refreshTokenEnc: string | null;
    tokenExpiresAt: Date;
  },
): Promise<RoleConnectionRow> {
  const [row] = await db
    .insert(roleConnections)
    .values({ ...link, pushDueAt: link.guildId === null ? null : sql`clock_timestamp()` })
    .onConflictDoUpdate({
      target: roleConnections.userId,
      set: {
        accessTokenEnc: link.accessTokenEnc,
        refreshTokenEnc: link.refreshTokenEnc,
        tokenExpiresAt: link.tokenExpiresAt,
        linkedAt: sql`now()`,
        guildId: sql`coalesce(${roleConnections.guildId}, excluded.guild_id)`,
        pushDueAt: sql`case when coalesce(${roleConnections.guildId}, excluded.guild_id) is null then null else clock_timestamp() end`,
      },
    })
    .returning();
  if (!row) throw new Error('role connection upsert returned no row');
  return row;
}

/** Shows another server: due at once. Undefined when the user is not linked. */
export async function pickRoleConnectionGuild(
  db: Db,
  userId: string,
  guildId: string,
): Promise<RoleConnectionRow | undefined> {
  const [row] = await db
    .update(roleConnections)
    .set({ guildId, pushDueAt: sql`clock_timestamp()` })
    .where(eq(roleConnections.userId, userId))
    .returning();
  return row;
}

/** Deletes the user's link (unlink, or member data erased). Answers whether there was one. */
export async function deleteRoleConnection(db: Db, userId: string): Promise<boolean> {
  const rows = await db.delete(roleConnections).where(eq(roleConnections.userId, userId)).returning();
  return rows.length > 0;
}

/** The links showing the guild (its data is being deleted: their connections are cleared first). */
export async function roleConnectionsOfGuild(db: Db, guildId: string): Promise<RoleConnectionRow[]> {
  return db.select().from(roleConnections).where(eq(roleConnections.guildId, guildId));
}
