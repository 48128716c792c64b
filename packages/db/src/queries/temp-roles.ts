import type { TempRoleSource } from '@spacecadet/contract';
import type { TempRoleEndReason } from '@spacecadet/core';
import { and, asc, eq, gte, inArray, isNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { type TempRoleRow, type TempRoleState, tempRoles } from '../schema/temp-roles.ts';
import { inShards, type ShardFilter } from './shard-filter.ts';

/**
 * Temporary roles (`temp_roles`): recorded by the API, a `/temprole` command or a role-menu
 * pick, given and taken back by the worker. Every state change is conditional on the state it
 * leaves, so a job run twice (or a gateway event racing it) changes a row once.
 */

const OPEN: TempRoleState[] = ['pending', 'active', 'expiring'];

export interface NewTempRole {
  guildId: string;
  userId: string;
  roleId: string;
  expiresAt: Date;
  grantedBy: string | null;
  source: TempRoleSource;
  /** `active` when the caller gives the role itself (a command, a pick); `pending` for the worker's grant job. */
  state: 'pending' | 'active';
}

/**
 * Records a temporary role; one already open for the member and role is given the new expiry
 * (and giver) instead, so giving it again extends or shortens it. Returns the row.
 */
export async function recordTempRole(db: Db, role: NewTempRole): Promise<TempRoleRow> {
  const [row] = await db
    .insert(tempRoles)
    .values(role)
    .onConflictDoUpdate({
      target: [tempRoles.guildId, tempRoles.userId, tempRoles.roleId],
      targetWhere: sql`${tempRoles.state} <> 'ended'`,
      set: {
        expiresAt: role.expiresAt,
        grantedBy: role.grantedBy,
        source: role.source,
        endReason: null,
        ...(role.state === 'active'
          ? { state: sql`case when ${tempRoles.state} = 'expiring' then 'expiring' else 'active' end` }
          : {}),
      },
    })
    .returning();
  if (!row) throw new Error('temp_roles insert returned no row');
  return row;
}

/** Running: pending or held, and no early end asked for. */
const running = (guildId: string) =>
  and(
    eq(tempRoles.guildId, guildId),
    inArray(tempRoles.state, ['pending', 'active']),
    isNull(tempRoles.endReason),
  );

/** The one row `where` finds, or null. */
async function oneRow(db: Db, where: SQL | undefined): Promise<TempRoleRow | null> {
  const [row] = await db.select().from(tempRoles).where(where);
  return row ?? null;
}

/** The guild's temporary roles still running (pending or held), soonest to expire first. */
export function listRunningTempRoles(db: Db, guildId: string): Promise<TempRoleRow[]> {
  return db
    .select()
    .from(tempRoles)
    .where(running(guildId))
    .orderBy(asc(tempRoles.expiresAt), asc(tempRoles.id));
}

/** One running temporary role of the guild, or null. */
export function loadRunningTempRole(db: Db, guildId: string, id: number): Promise<TempRoleRow | null> {
  return oneRow(db, and(running(guildId), eq(tempRoles.id, id)));
}

/**
 * An admin's early end: the row falls due now with `ended_early` as its reason, which the
 * worker's expiry carries out. Null when it was not running (ended meanwhile).
 */
export async function requestEarlyEnd(db: Db, guildId: string, id: number): Promise<TempRoleRow | null> {
  const [row] = await db
    .update(tempRoles)
    .set({ expiresAt: sql`least(${tempRoles.expiresAt}, now())`, endReason: 'ended_early' })
    .where(and(eq(tempRoles.guildId, guildId), eq(tempRoles.id, id), inArray(tempRoles.state, OPEN)))
    .returning();
  return row ?? null;
}

/** The guild's rows the worker has still to give. */
export function pendingTempRoles(db: Db, guildId: string): Promise<TempRoleRow[]> {
  return db
    .select()
    .from(tempRoles)
    .where(and(eq(tempRoles.guildId, guildId), eq(tempRoles.state, 'pending')))
    .orderBy(asc(tempRoles.id));
}

/** Changes one row only while `when` holds of it: the row changed, or null when it did not hold. */
async function transition(
  db: Db,
  id: number,
  set: { [K in keyof typeof tempRoles.$inferInsert]?: (typeof tempRoles.$inferInsert)[K] | SQL },
  when: SQL | undefined,
): Promise<TempRoleRow | null> {
  const [row] = await db
    .update(tempRoles)
    .set(set)
    .where(and(eq(tempRoles.id, id), when))
    .returning();
  return row ?? null;
}

/** The role was given: pending -> active. False when the row left `pending` meanwhile. */
export async function markTempRoleGiven(db: Db, id: number): Promise<boolean> {
  return (await transition(db, id, { state: 'active' }, eq(tempRoles.state, 'pending'))) !== null;
}

/** The guild's open rows due by `at` (the worker's clock), oldest due first. */
export function dueTempRoles(db: Db, guildId: string, at: Date): Promise<TempRoleRow[]> {
  return db
    .select()
    .from(tempRoles)
    .where(and(eq(tempRoles.guildId, guildId), inArray(tempRoles.state, OPEN), lte(tempRoles.expiresAt, at)))
    .orderBy(asc(tempRoles.expiresAt), asc(tempRoles.id));
}

/** Claims a due row for its removal (active or pending -> expiring); an expiring one stays claimable. */
export function claimExpiring(db: Db, id: number): Promise<TempRoleRow | null> {
  return transition(db, id, { state: 'expiring' }, inArray(tempRoles.state, OPEN));
}

/**
 * Ends an open row (`from`: the states it may end from) with its reason; the row as ended, or
 * null when it had ended already (so the caller records its end once).
 */
export function endTempRole(
  db: Db,
  id: number,
  reason: TempRoleEndReason,
  from: TempRoleState[] = OPEN,
): Promise<TempRoleRow | null> {
  return transition(
    db,
    id,
    { state: 'ended', endReason: reason, endedAt: sql`now()` },
    inArray(tempRoles.state, from),
  );
}

/**
 * A row that expired while its member was away, now taken back on their return: its reason
 * becomes `expired`, so it is taken back once.
 */
export async function settleAbsentExpiry(db: Db, id: number): Promise<boolean> {
  return (
    (await transition(db, id, { endReason: 'expired' }, eq(tempRoles.endReason, 'expired_absent'))) !== null
  );
}

/**
 * What a member event needs of the member's temporary roles: the held ones (a role gone from
 * the member ended by hand) and those that expired while they were away (taken back if they
 * return holding it).
 */
export function memberTempRoles(db: Db, guildId: string, userId: string): Promise<TempRoleRow[]> {
  return db
    .select()
    .from(tempRoles)
    .where(
      and(
        eq(tempRoles.guildId, guildId),
        eq(tempRoles.userId, userId),
        or(eq(tempRoles.state, 'active'), eq(tempRoles.endReason, 'expired_absent')),
      ),
    );
}

/**
 * Guilds the expiry sweep runs for: those with a temporary role still to give, or not ended and
 * due by `horizon` (a role that ends in a month needs no sweep every few seconds until then).
 */
export async function guildsNeedingTempRoleSweep(
  db: Db,
  horizon: Date,
  shards?: ShardFilter,
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ guildId: tempRoles.guildId })
    .from(tempRoles)
    .where(
      and(
        ne(tempRoles.state, 'ended'),
        or(eq(tempRoles.state, 'pending'), lte(tempRoles.expiresAt, horizon)),
        inShards(tempRoles.guildId, shards),
      ),
    );
  return rows.map((row) => row.guildId);
}

/** The member's open temporary role of `roleId`, if any (`/temprole remove`). */
export function loadOpenTempRole(
  db: Db,
  guildId: string,
  userId: string,
  roleId: string,
): Promise<TempRoleRow | null> {
  return oneRow(
    db,
    and(
      eq(tempRoles.guildId, guildId),
      eq(tempRoles.userId, userId),
      eq(tempRoles.roleId, roleId),
      inArray(tempRoles.state, OPEN),
    ),
  );
}

/**
 * The roles of the member's temporary roles that expired since `since` (while they were away,
 * for a leave at `since`): sticky roles must not give these back.
 */
export async function rolesExpiredSince(
  db: Db,
  guildId: string,
  userId: string,
  since: Date,
): Promise<Set<string>> {
  const rows = await db
    .select({ roleId: tempRoles.roleId })
    .from(tempRoles)
    .where(
      and(
        eq(tempRoles.guildId, guildId),
        eq(tempRoles.userId, userId),
        eq(tempRoles.state, 'ended'),
        inArray(tempRoles.endReason, ['expired', 'expired_absent']),
        gte(tempRoles.endedAt, since),
      ),
    );
  return new Set(rows.map((row) => row.roleId));
}
