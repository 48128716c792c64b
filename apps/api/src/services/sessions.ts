import type { SessionUser } from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import { type SessionRow, sessions } from '@spacecadet/db/schema';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { hashSessionToken, newSessionToken, type TokenCipher } from './crypto.ts';
import { type DiscordClient, DiscordError, type DiscordTokenResponse } from './discord.ts';
import type { ExpiringMap, ReplicaCache } from './replica-cache.ts';

/** The signed-in session a request carries once authenticated. */
export interface SessionContext {
  id: string;
  user: SessionUser;
  expiresAt: Date;
}

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
 * API sessions: an opaque token for the browser (only its sha256 is stored) and the user's
 * Discord tokens kept server-side, encrypted, refreshed with the refresh_token grant on demand.
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

  async create(
    user: SessionUser,
    tokens: DiscordTokenResponse,
  ): Promise<{ token: string; session: SessionContext }> {
    const token = newSessionToken();
    const tokenHash = hashSessionToken(token);
    const now = Date.now();
    const expiresAt = new Date(now + this.ttlSec * 1000);
    const [row] = await this.db
      .insert(sessions)
      .values({
        tokenHash,
        userId: user.id,
        username: user.username,
        discriminator: user.discriminator,
        avatar: user.avatar,
        discordAccessTokenEnc: this.cipher.encrypt(tokens.access_token),
        discordRefreshTokenEnc: this.cipher.encrypt(tokens.refresh_token),
        discordTokenExpiresAt: new Date(now + tokens.expires_in * 1000),
        expiresAt,
      })
      .returning({ id: sessions.id });
    if (!row) throw new Error('Session insert returned no row');
    // Housekeeping: this user's sessions that ended over a day ago are of no use to anyone.
    await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, new Date(now - STALE_SESSION_MS))));
    const session: SessionContext = { id: row.id, user, expiresAt };
    // Known here from its first request on (so it already counts against its own rate budget).
    this.cached.fill(token, session, this.cached.version(), this.ttlSec * 1000);
    return { token, session };
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
   * Ends every live session of the user (sign out everywhere, erasing their data) and tells every
   * replica to forget them; answers how many were ended.
   */
  async revokeUser(userId: string): Promise<number> {
    const ended = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    for (const { id } of ended) await this.cache.announce({ kind: 'session', id });
    return ended.length;
  }

  /**
   * Logout: ends the session and asks Discord to revoke the grant behind it, so the stored
   * Discord tokens are worthless from now on. Discord failing to answer does not undo the logout.
   */
  async logout(sessionId: string): Promise<void> {
    const [row] = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, sessionId))
      .returning();
    await this.cache.announce({ kind: 'session', id: sessionId });
    const sealed = row?.discordRefreshTokenEnc ?? row?.discordAccessTokenEnc;
    if (sealed === undefined) return;
    await this.discord.revokeToken(this.cipher.decrypt(sealed)).catch(() => undefined);
  }

  /**
   * The user's Discord access token, refreshed first when it has expired or when Discord has
   * just refused it (`refused`: the token it refused). A refresh Discord rejects (app revoked,
   * refresh token expired) ends the session: the user must sign in again.
   *
   * Discord rotates the refresh token on use, so concurrent refreshes of one session would
   * invalidate each other: the refresh runs under a row lock and first re-reads the row, in
   * case another request (or API replica) refreshed it meanwhile.
   */
  async discordAccessToken(sessionId: string, options: { refused?: string } = {}): Promise<string | null> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1);
    if (!row) return null;
    const usable = this.usableToken(row, options.refused);
    if (usable !== null) return usable;

    let revoked = false;
    const token = await this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(sessions).where(eq(sessions.id, sessionId)).for('update');
      if (!locked || locked.revokedAt !== null) return null;
      const refreshedMeanwhile = this.usableToken(locked, options.refused);
      if (refreshedMeanwhile !== null) return refreshedMeanwhile;
      if (locked.discordRefreshTokenEnc === null) return null;

      let fresh: DiscordTokenResponse;
      try {
        fresh = await this.discord.refreshToken(this.cipher.decrypt(locked.discordRefreshTokenEnc));
      } catch (error) {
        if (error instanceof DiscordError && error.status >= 400 && error.status < 500) {
          await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
          revoked = true;
          return null;
        }
        throw error;
      }
      await tx
        .update(sessions)
        .set({
          discordAccessTokenEnc: this.cipher.encrypt(fresh.access_token),
          discordRefreshTokenEnc: this.cipher.encrypt(fresh.refresh_token),
          discordTokenExpiresAt: new Date(Date.now() + fresh.expires_in * 1000),
        })
        .where(eq(sessions.id, sessionId));
      return fresh.access_token;
    });
    // Announced once committed, so no replica can read the session back as valid meanwhile.
    if (revoked) await this.cache.announce({ kind: 'session', id: sessionId });
    return token;
  }

  /** The stored access token, unless it has expired or is the one Discord just refused. */
  private usableToken(row: SessionRow, refused: string | undefined): string | null {
    if (row.discordTokenExpiresAt.getTime() - DISCORD_EXPIRY_MARGIN_MS <= Date.now()) return null;
    const token = this.cipher.decrypt(row.discordAccessTokenEnc);
    return token === refused ? null : token;
  }
}

/** A stored session as requests see it, or null when it has ended (revoked or expired). */
function liveContext(row: SessionRow): SessionContext | null {
  if (row.revokedAt !== null || row.expiresAt.getTime() <= Date.now()) return null;
  return {
    id: row.id,
    user: { id: row.userId, username: row.username, discriminator: row.discriminator, avatar: row.avatar },
    expiresAt: row.expiresAt,
  };
}
