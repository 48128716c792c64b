/**
 * A browser's sign-in (table `sign_ins`): what the session service hands out and the writes that
 * end sign-ins together with their tab sessions (logout, sign out everywhere, a replayed refresh
 * token, Discord refusing the grant).
 */
import type { SessionUser } from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import { sessions, signIns } from '@spacecadet/db/schema';
import { and, inArray, isNull, type SQL } from 'drizzle-orm';

/** The signed-in session a request carries once authenticated. */
export interface SessionContext {
  id: string;
  user: SessionUser;
  expiresAt: Date;
}

/** A browser's sign-in lifetime and the grace of a rotated refresh token. */
export interface SignInPolicy {
  ttlSec: number;
  refreshGraceSec: number;
}

/** A new bearer for a tab, and the browser's refresh token when it changed (null: keep the cookie). */
export interface IssuedSession {
  token: string;
  session: SessionContext;
  refresh: { token: string; expiresAt: Date } | null;
}

/**
 * What trading a refresh token answered: a new bearer, or why not (`unknown`: no such token, or a
 * sign-in that was ended; `expired`: the sign-in outlived its lifetime; `reused`: a rotated token
 * came back after the grace, so the whole sign-in has just been ended).
 */
export type RefreshResult = ({ status: 'ok' } & IssuedSession) | { status: 'unknown' | 'expired' | 'reused' };

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export function userColumns(user: SessionUser) {
  return { username: user.username, discriminator: user.discriminator, avatar: user.avatar };
}

/** Ends the live sign-ins matching `where` and their sessions; answers the sessions' ids. */
export async function endSignIns(tx: Tx, where: SQL | undefined): Promise<string[]> {
  const rows = await tx
    .update(signIns)
    .set({ revokedAt: new Date() })
    .where(and(where, isNull(signIns.revokedAt)))
    .returning({ id: signIns.id });
  return endSessionsOf(
    tx,
    rows.map((row) => row.id),
  );
}

/** Ends the live sessions of these sign-ins; answers their ids. */
export async function endSessionsOf(tx: Tx, signInIds: string[]): Promise<string[]> {
  if (signInIds.length === 0) return [];
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(inArray(sessions.signInId, signInIds), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return ended.map(({ id }) => id);
}
