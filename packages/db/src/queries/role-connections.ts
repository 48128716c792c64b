/**
 * Discord Linked Roles: each linked user's role connection (the server whose level it shows,
 * their tokens sealed as a sign-in's are) and what is due to be pushed to Discord. XP batches
 * mark a linked member's row due when their level changes there (`markRoleConnectionsDue`); the
 * worker's push job reads due rows with the level and XP to show and records what it pushed.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { roleConnections } from '../schema/role-connections.ts';

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
export async function linkedGuilds(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ guildId: roleConnections.guildId })
    .from(roleConnections)
    .where(isNotNull(roleConnections.guildId));
  return rows.flatMap((r) => (r.guildId ? [r.guildId] : []));
}

export interface DueRoleConnection {
  userId: string;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  tokenExpiresAt: Date;
  pushDueAt: Date;
  /** The member's level and XP in the guild now (0 when they have no XP row). */
  level: number;
  xp: number;
}

/** Up to `limit` of the guild's due connections, oldest mark first, with the level and XP to show. */
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
    push_due_at: Date | string;
    level: number | null;
    xp: string | number | null;
  }>(sql`
    select r.user_id, r.access_token_enc, r.refresh_token_enc, r.token_expires_at, r.push_due_at, m.level, m.xp
    from role_connections r
    left join member_xp m on m.guild_id = r.guild_id and m.user_id = r.user_id
    where r.guild_id = ${guildId} and r.push_due_at is not null
    order by r.push_due_at, r.user_id
    limit ${limit}`);
  return rows.rows.map((r) => ({
    userId: r.user_id,
    accessTokenEnc: r.access_token_enc,
    refreshTokenEnc: r.refresh_token_enc,
    tokenExpiresAt: new Date(r.token_expires_at),
    pushDueAt: new Date(r.push_due_at),
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
