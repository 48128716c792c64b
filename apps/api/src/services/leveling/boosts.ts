import type { Boost } from '@spacecadet/contract';
import { boostTarget } from '@spacecadet/core';
import type { Db } from '@spacecadet/db';
import {
  addLevelingBoost,
  deleteBoostsExpiredBefore,
  enableLeveling,
  type StoredBoost,
} from '@spacecadet/db/queries/leveling';
import { takeLevelingBoost } from '@spacecadet/db/queries/leveling-snapshots';
import { ApiError, notFound } from '../../errors.ts';

/**
 * XP boosts (server-wide, member, role or channel): their API and History shapes, their writes
 * and the History summary of one.
 */

export const EXPIRY_IN_PAST_MESSAGE =
  'The expiry is in the past: choose a later date and time, or leave it empty for a permanent boost.';
export const NO_BOOST_MESSAGE = 'No such boost';

/**
 * Expired boosts stay listed (as expired) for a week, so an admin sees that one ran out; after
 * that they are deleted when the leveling state is read or a boost is added. Nothing else needs
 * them: the worker ignores expired boosts (core `activeBoostMultiplier`).
 */
export const EXPIRED_BOOST_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** Deletes the guild's boosts that expired longer ago than they stay listed. */
export function deleteLongExpiredBoosts(db: Db, guildId: string): Promise<void> {
  return deleteBoostsExpiredBefore(db, guildId, new Date(Date.now() - EXPIRED_BOOST_KEEP_MS));
}

/** A boost that would never apply is a mistake: refuse it rather than store it. */
function expiryOf(expiresAt: string | null): Date | null {
  if (expiresAt === null) return null;
  const at = new Date(expiresAt);
  if (at.getTime() <= Date.now()) throw new ApiError('invalid_input', EXPIRY_IN_PAST_MESSAGE);
  return at;
}

export function toBoost(row: StoredBoost): Boost {
  return {
    id: row.id,
    multiplier: row.multiplier,
    user_id: row.userId,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/** A boost as its history entry keeps it (`leveling:boost:<id>`). */
export type BoostState = Omit<Boost, 'id'>;

export function toBoostState(row: StoredBoost): BoostState {
  const { id: _id, ...state } = toBoost(row);
  return state;
}

/**
 * Adds a server-wide, member or role boost (one row either way, its `user_id` says whose) and
 * turns leveling on; long-expired boosts are cleared first.
 */
export async function addBoost(
  db: Db,
  guildId: string,
  userId: string | null,
  boost: { multiplier: number; expires_at: string | null },
): Promise<StoredBoost> {
  const expiresAt = expiryOf(boost.expires_at);
  await deleteLongExpiredBoosts(db, guildId);
  const row = await addLevelingBoost(db, guildId, { multiplier: boost.multiplier, userId, expiresAt });
  await enableLeveling(db, guildId);
  return row;
}

/** Deletes a boost; answers the deleted row (404 when there is none). */
export async function removeBoost(db: Db, guildId: string, boostId: number): Promise<StoredBoost> {
  const deleted = await takeLevelingBoost(db, guildId, boostId);
  if (!deleted) throw notFound(NO_BOOST_MESSAGE);
  return deleted;
}

/** "×2 boost for <@&123> until 2026-12-01 10:00 UTC". */
export function boostSummary(boost: Pick<StoredBoost, 'multiplier' | 'userId' | 'expiresAt'>): string {
  const target = boostTarget(boost.userId);
  const whom =
    target.kind === 'server'
      ? 'server-wide'
      : target.kind === 'role'
        ? `for <@&${target.roleId}>`
        : target.kind === 'channel'
          ? `in <#${target.channelId}>`
          : `for <@${target.userId}>`;
  const until = boost.expiresAt
    ? ` until ${boost.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`
    : '';
  return `×${boost.multiplier} boost ${whom}${until}`;
}
