/**
 * Sessions of the API: sign-in, refresh, lookup, logout and the user's Discord tokens.
 * Why one file: every step reads or ends the same rows under the same discipline (the sign-in's
 * row lock for anything Discord or the refresh token rotates, the replica cache told once each
 * transaction commits), which is easiest to check when it is read in one place.
 */
import type { SessionUser } from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import { type SignInRow, sessions, signIns } from '@spacecadet/db/schema';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { hashSessionToken, newSessionToken, type TokenCipher } from './crypto.ts';
import { type DiscordClient, DiscordError, type DiscordTokenResponse } from './discord.ts';
import type { ExpiringMap, ReplicaCache } from './replica-cache.ts';
import {
  endSessionsOf,
  endSignIns,
  type IssuedSession,
  type RefreshResult,
  type SessionContext,
  type SignInPolicy,
  type Tx,
  userColumns,
} from './sign-ins.ts';

export type { IssuedSession, RefreshResult, SessionContext, SignInPolicy } from './sign-ins.ts';

export type SessionLookup =
  | { status: 'valid'; session: SessionContext }
  | { status: 'unknown' }
  | { status: 'expired' };

const STALE_SESSION_MS = 24 * 3600 * 1000;

/** Refresh the Discord token this long before Discord would reject it. */
const DISCORD_EXPIRY_MARGIN_MS = 30_000;

/**
 * How long a replica keeps a looked-up session in memory. Logout and revocation are announced to
 * every replica at once; this bounds only a session ended in Postgres by hand.
 */
export const SESSION_CACHE = { ttlMs: 30_000, maxEntries: 20_000 } as const;

/**
 * API sessions. A sign-in with Discord creates a sign-in row (the user's Discord tokens, kept
 * server-side, encrypted, refreshed with the refresh_token grant on demand; and the sha256 of the
 * browser's refresh cookie) and a first tab session: an opaque bearer (only its sha256 stored).
 * A new tab trades the refresh cookie for a bearer of its own, pointing at the same sign-in, so
 * the Discord tokens exist once per browser and are refreshed under the sign-in's row lock.
 */
export class SessionService {
  /**
   * Valid sessions by token, as `lookup` found them. Keyed by the token itself, not its hash:
   * hashing was the largest cost of a cached request, and the process sees every token anyway.
   * Only hashes are ever stored outside this process.
   */
  private readonly cached: ExpiringMap<string, SessionContext>;
  /** The session lookup of every guarded request, prepared once per Postgres connection. */
  private readonly byTokenHash;

  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
    private readonly discord: DiscordClient,
    private readonly ttlSec: number,
    private readonly cache: ReplicaCache,
    private readonly signIn: SignInPolicy,
  ) {
    this.cached = cache.map<string, SessionContext>(SESSION_CACHE, (map, drop) => {
      if (drop.kind === 'session') map.deleteWhere((session) => session.id === drop.id);
    });
    this.byTokenHash = db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
      .limit(1)
      .prepare('session_by_token_hash');
  }

  /** Signing in with Discord: a new sign-in for this browser, its refresh token and a first bearer. */
  async create(
    user: SessionUser,
    tokens: DiscordTokenResponse,
  ): Promise<IssuedSession & { refresh: { token: string; expiresAt: Date } }> {
    const now = Date.now();
    const refreshToken = newSessionToken();
    const expiresAt = new Date(now + this.signIn.ttlSec * 1000);
    const issued = await this.db.transaction(async (tx) => {
      const [signIn] = await tx
        .insert(signIns)
        .values({
          userId: user.id,
          username: user.username,
          discriminator: user.discriminator,
          avatar: user.avatar,
          discordAccessTokenEnc: this.cipher.encrypt(tokens.access_token),
          discordRefreshTokenEnc: this.cipher.encrypt(tokens.refresh_token),
          discordTokenExpiresAt: new Date(now + tokens.expires_in * 1000),
          refreshTokenHash: hashSessionToken(refreshToken),
          expiresAt,
        })
        .returning();
      if (!signIn) throw new Error('Sign-in insert returned no row');
      return this.issue(tx, signIn);
    });
    // Housekeeping: this user's sign-ins (and their sessions) that ended over a day ago, and
    // sessions that did, are of no use to anyone.
    const stale = new Date(now - STALE_SESSION_MS);
    await this.db.delete(signIns).where(and(eq(signIns.userId, user.id), lt(signIns.expiresAt, stale)));
    await this.db.delete(sessions).where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, stale)));
    return { ...issued, refresh: { token: refreshToken, expiresAt } };
  }

  /**
   * A new tab (or one whose bearer ended) trades the browser's refresh token for a bearer. The
   * token rotates on each use; the previous one still answers (without a new cookie: the browser
   * already holds the current one) for `refreshGraceSec`, so tabs refreshing at the same moment
   * all get in. Replayed later it means the cookie was copied: the sign-in and its bearers end.
   */
  async refresh(refreshToken: string): Promise<RefreshResult> {
    const hash = hashSessionToken(refreshToken);
    let reused: string[] | null = null;
    const result = await this.db.transaction(async (tx): Promise<RefreshResult> => {
      // Rechecked after waiting on the lock, so a concurrent rotation still finds the row.
      const [row] = await tx
        .select()
        .from(signIns)
        .where(or(eq(signIns.refreshTokenHash, hash), eq(signIns.previousRefreshTokenHash, hash)))
        .for('update');
      if (!row || row.revokedAt !== null) return { status: 'unknown' };
      const now = Date.now();
      if (row.expiresAt.getTime() <= now) return { status: 'expired' };
      if (row.refreshTokenHash !== hash) {
        const graceEnds = (row.rotatedAt?.getTime() ?? 0) + this.signIn.refreshGraceSec * 1000;
        if (graceEnds >= now) return { status: 'ok', ...(await this.issue(tx, row)) };
        reused = await endSignIns(tx, eq(signIns.id, row.id));
        return { status: 'reused' };
      }
      const next = newSessionToken();
      await tx
        .update(signIns)
        .set({
          refreshTokenHash: hashSessionToken(next),
          previousRefreshTokenHash: hash,
          rotatedAt: new Date(now),
        })
        .where(eq(signIns.id, row.id));
      const issued = await this.issue(tx, row);
      return { status: 'ok', ...issued, refresh: { token: next, expiresAt: row.expiresAt } };
    });
    await this.announceEnded(reused ?? []);
    return result;
  }

  /** A new bearer of the sign-in (inside its transaction); known to this replica from now on. */
  private async issue(tx: Tx, signIn: SignInRow): Promise<IssuedSession> {
    const token = newSessionToken();
    const expiresAt = new Date(Date.now() + this.ttlSec * 1000);
    const user: SessionUser = {
      id: signIn.userId,
      username: signIn.username,
      discriminator: signIn.discriminator,
      avatar: signIn.avatar,
    };
    const [row] = await tx
      .insert(sessions)
      .values({
        tokenHash: hashSessionToken(token),
        signInId: signIn.id,
        userId: user.id,
        ...userColumns(user),
        expiresAt,
      })
      .returning({ id: sessions.id });
    if (!row) throw new Error('Session insert returned no row');
    const session: SessionContext = { id: row.id, user, expiresAt };
    // Known here from its first request on (so it already counts against its own rate budget).
    this.cached.fill(token, session, this.cached.version(), this.ttlSec * 1000);
    return { token, session, refresh: null };
  }

  /**
   * The token's session when this replica already holds it as valid, without asking Postgres;
   * undefined otherwise (not yet seen here, ended, made up). For the rate limiter's key.
   */
  known(token: string): SessionContext | undefined {
    const session = this.cached.get(token);
    return session !== undefined && session.expiresAt.getTime() > Date.now() ? session : undefined;
  }

  async lookup(token: string): Promise<SessionLookup> {
    const known = this.cached.get(token);
    if (known !== undefined) {
      return known.expiresAt.getTime() <= Date.now()
        ? { status: 'expired' }
        : { status: 'valid', session: known };
    }
    const version = this.cached.version();
    const [row] = await this.byTokenHash.execute({ tokenHash: hashSessionToken(token) });
    if (!row) return { status: 'unknown' };
    const session = liveContext(row);
    if (session === null) return { status: 'expired' };
    this.cached.fill(token, session, version, row.expiresAt.getTime() - Date.now());
    return { status: 'valid', session };
  }

  /**
   * The session with this id, read from Postgres, while it is live; null once it is logged out,
   * revoked, expired or gone. For what holds a session id rather than its token (the queue view).
   */
  async live(sessionId: string): Promise<SessionContext | null> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1);
    return row ? liveContext(row) : null;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
    await this.cache.announce({ kind: 'session', id: sessionId });
  }

  /**
   * Sign out everywhere (and erasing a member's data): ends every sign-in of the user, so no
   * refresh cookie trades for a bearer any more, and every live session, and tells every replica
   * to forget them; answers how many sessions were ended.
   */
  async revokeUser(userId: string): Promise<number> {
    const ended = await this.db.transaction(async (tx) => {
      const bySignIn = await endSignIns(tx, eq(signIns.userId, userId));
      const rest = await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return [...bySignIn, ...rest.map(({ id }) => id)];
    });
    await this.announceEnded(ended);
    return ended.length;
  }

  /**
   * Logout: ends the session's sign-in (every tab of this browser, and its refresh cookie) and
   * the one the browser's refresh token names if another, and asks Discord to revoke the grant
   * behind them, so the stored Discord tokens are worthless from now on. Discord failing to
   * answer does not undo the logout.
   */
  async logout(sessionId: string, refreshToken: string | null = null): Promise<void> {
    const hash = refreshToken === null ? null : hashSessionToken(refreshToken);
    const [own] = await this.db
      .select({ signInId: sessions.signInId })
      .from(sessions)
      .where(eq(sessions.id, sessionId))
      .limit(1);
    const which = [
      ...(own ? [eq(signIns.id, own.signInId)] : []),
      ...(hash === null ? [] : [eq(signIns.refreshTokenHash, hash)]),
    ];
    if (which.length === 0) return;
    const { ended, rows } = await this.db.transaction(async (tx) => {
      const rows = await tx
        .update(signIns)
        .set({ revokedAt: new Date() })
        .where(and(or(...which), isNull(signIns.revokedAt)))
        .returning();
      return {
        ended: await endSessionsOf(
          tx,
          rows.map((row) => row.id),
        ),
        rows,
      };
    });
    await this.announceEnded([sessionId, ...ended]);
    for (const row of rows) {
      const sealed = row.discordRefreshTokenEnc ?? row.discordAccessTokenEnc;
      await this.discord.revokeToken(this.cipher.decrypt(sealed)).catch(() => undefined);
    }
  }

  /** Announced once committed, so no replica can read an ended session back as valid meanwhile. */
  private async announceEnded(sessionIds: string[]): Promise<void> {
    for (const id of new Set(sessionIds)) await this.cache.announce({ kind: 'session', id });
  }

  /**
   * The user's Discord access token, refreshed first when it has expired or when Discord has
   * just refused it (`refused`: the token it refused). A refresh Discord rejects (app revoked,
   * refresh token expired) ends the sign-in: the user must sign in with Discord again.
   *
   * Discord rotates the refresh token on use, so concurrent refreshes (tabs of one browser share
   * the sign-in's tokens) would invalidate each other: the refresh runs under the sign-in's row
   * lock and first re-reads the row, in case another request (or API replica) refreshed it.
   */
  async discordAccessToken(sessionId: string, options: { refused?: string } = {}): Promise<string | null> {
    const [found] = await this.db
      .select({ signIn: signIns })
      .from(sessions)
      .innerJoin(signIns, eq(signIns.id, sessions.signInId))
      .where(eq(sessions.id, sessionId))
      .limit(1);
    if (!found) return null;
    const usable = this.usableToken(found.signIn, options.refused);
    if (usable !== null) return usable;

    let ended: string[] = [];
    const token = await this.db.transaction(async (tx) => {
      const signInId = found.signIn.id;
      const [locked] = await tx.select().from(signIns).where(eq(signIns.id, signInId)).for('update');
      if (!locked || locked.revokedAt !== null) return null;
      const refreshedMeanwhile = this.usableToken(locked, options.refused);
      if (refreshedMeanwhile !== null) return refreshedMeanwhile;
      if (locked.discordRefreshTokenEnc === null) return null;

      let fresh: DiscordTokenResponse;
      try {
        fresh = await this.discord.refreshToken(this.cipher.decrypt(locked.discordRefreshTokenEnc));
      } catch (error) {
        if (error instanceof DiscordError && error.status >= 400 && error.status < 500) {
          ended = await endSignIns(tx, eq(signIns.id, signInId));
          return null;
        }
        throw error;
      }
      await tx
        .update(signIns)
        .set({
          discordAccessTokenEnc: this.cipher.encrypt(fresh.access_token),
          discordRefreshTokenEnc: this.cipher.encrypt(fresh.refresh_token),
          discordTokenExpiresAt: new Date(Date.now() + fresh.expires_in * 1000),
        })
        .where(eq(signIns.id, signInId));
      return fresh.access_token;
    });
    await this.announceEnded(ended);
    return token;
  }

  /** The stored access token, unless it has expired or is the one Discord just refused. */
  private usableToken(row: SignInRow, refused: string | undefined): string | null {
    if (row.discordTokenExpiresAt.getTime() - DISCORD_EXPIRY_MARGIN_MS <= Date.now()) return null;
    const token = this.cipher.decrypt(row.discordAccessTokenEnc);
    return token === refused ? null : token;
  }
}

/** A stored session as requests see it, or null when it has ended (revoked or expired). */
function liveContext(row: typeof sessions.$inferSelect): SessionContext | null {
  if (row.revokedAt !== null || row.expiresAt.getTime() <= Date.now()) return null;
  return {
    id: row.id,
    user: { id: row.userId, username: row.username, discriminator: row.discriminator, avatar: row.avatar },
    expiresAt: row.expiresAt,
  };
}
