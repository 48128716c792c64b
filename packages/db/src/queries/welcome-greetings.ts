/**
 * The welcomes and goodbyes the worker owes or made (`welcome_greetings`): recorded when the
 * live gateway event is heard, claimed under a post's nonce, finished with the message id. What
 * makes every member greeted exactly once whatever runs twice or dies halfway.
 */
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  type WelcomeGreetingKind,
  type WelcomeGreetingRow,
  welcomeGreetings,
} from '../schema/welcome-greetings.ts';

export type NewWelcomeGreeting = Pick<
  WelcomeGreetingRow,
  'guildId' | 'userId' | 'kind' | 'joinedAt' | 'username' | 'answers' | 'memberCount' | 'raid'
> & { awaiting?: boolean };

/** Records an owed greeting; false when this member's greeting of this join was recorded already. */
export async function recordGreeting(db: Db, greeting: NewWelcomeGreeting): Promise<boolean> {
  const rows = await db
    .insert(welcomeGreetings)
    .values(greeting)
    .onConflictDoNothing()
    .returning({ userId: welcomeGreetings.userId });
  return rows.length > 0;
}

const rowKey = (row: Pick<WelcomeGreetingRow, 'guildId' | 'userId' | 'kind' | 'joinedAt'>) =>
  and(
    eq(welcomeGreetings.guildId, row.guildId),
    eq(welcomeGreetings.userId, row.userId),
    eq(welcomeGreetings.kind, row.kind),
    eq(welcomeGreetings.joinedAt, row.joinedAt),
  );

const owed = (guildId: string, kind: WelcomeGreetingKind) =>
  and(
    eq(welcomeGreetings.guildId, guildId),
    eq(welcomeGreetings.kind, kind),
    isNull(welcomeGreetings.greetedAt),
    isNull(welcomeGreetings.skipped),
    eq(welcomeGreetings.awaiting, false),
  );

/** A guild's greetings (or goodbyes) still owed one by one (not merged into a raid's batches). */
export async function owedGreetings(
  db: Db,
  guildId: string,
  kind: WelcomeGreetingKind,
  limit = 100,
): Promise<WelcomeGreetingRow[]> {
  return db
    .select()
    .from(welcomeGreetings)
    .where(and(owed(guildId, kind), eq(welcomeGreetings.raid, false)))
    .orderBy(asc(welcomeGreetings.heardAt), asc(welcomeGreetings.userId))
    .limit(limit);
}

/** Whether a guild still owes greetings of a raid (to be merged into batches). */
export async function raidGreetingsOwed(db: Db, guildId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(welcomeGreetings)
    .where(and(owed(guildId, 'welcome'), eq(welcomeGreetings.raid, true)));
  return row?.count ?? 0;
}

/**
 * The next raid batch of a guild: a batch claimed before whose post did not finish (the same
 * members under the same nonce, so its retry makes one message), or else up to `max` owed raid
 * greetings, oldest first, claimed (FOR UPDATE SKIP LOCKED) under `batchOf(first row)`.
 */
export async function claimRaidBatch(
  db: Db,
  guildId: string,
  max: number,
  batchOf: (first: WelcomeGreetingRow) => string,
): Promise<{ batch: string; rows: WelcomeGreetingRow[] } | null> {
  return db.transaction(async (tx) => {
    const [open] = await tx
      .select({ batch: welcomeGreetings.batch })
      .from(welcomeGreetings)
      .where(
        and(owed(guildId, 'welcome'), eq(welcomeGreetings.raid, true), isNotNull(welcomeGreetings.batch)),
      )
      .limit(1);
    if (open?.batch) {
      const rows = await tx
        .select()
        .from(welcomeGreetings)
        .where(and(eq(welcomeGreetings.guildId, guildId), eq(welcomeGreetings.batch, open.batch)))
        .orderBy(asc(welcomeGreetings.heardAt), asc(welcomeGreetings.userId));
      return { batch: open.batch, rows };
    }
    const rows = await tx
      .select()
      .from(welcomeGreetings)
      .where(and(owed(guildId, 'welcome'), eq(welcomeGreetings.raid, true), isNull(welcomeGreetings.batch)))
      .orderBy(asc(welcomeGreetings.heardAt), asc(welcomeGreetings.userId))
      .limit(max)
      .for('update', { skipLocked: true });
    const first = rows[0];
    if (!first) return null;
    const batch = batchOf(first);
    for (const row of rows) {
      await tx.update(welcomeGreetings).set({ batch }).where(rowKey(row));
    }
    return { batch, rows: rows.map((row) => ({ ...row, batch })) };
  });
}

/** Claims one member's greeting under its own nonce (kept if a dead run claimed it already). */
export async function claimGreeting(db: Db, row: WelcomeGreetingRow, batch: string): Promise<void> {
  await db
    .update(welcomeGreetings)
    .set({ batch })
    .where(and(rowKey(row), isNull(welcomeGreetings.batch)));
}

/** Marks every greeting of a batch (one member's, or a raid's) as posted. */
export async function finishGreetings(
  db: Db,
  guildId: string,
  batch: string,
  messageId: string | null,
): Promise<void> {
  await db
    .update(welcomeGreetings)
    .set({ greetedAt: new Date(), messageId })
    .where(and(eq(welcomeGreetings.guildId, guildId), eq(welcomeGreetings.batch, batch)));
}

/** Marks a greeting as not to be posted, and why. */
export async function skipGreeting(db: Db, row: WelcomeGreetingRow, reason: string): Promise<void> {
  await db.update(welcomeGreetings).set({ skipped: reason }).where(rowKey(row));
}

type GreetingKey = Pick<WelcomeGreetingRow, 'guildId' | 'userId' | 'joinedAt'>;

/** Whether this join's greeting waits for the member to finish Onboarding (a cheap PK read). */
export async function greetingAwaits(db: Db, key: GreetingKey): Promise<boolean> {
  const [row] = await db
    .select({ awaiting: welcomeGreetings.awaiting })
    .from(welcomeGreetings)
    .where(rowKey({ ...key, kind: 'welcome' }));
  return row?.awaiting === true;
}

/**
 * The member finished Onboarding: their waiting greeting becomes owed, with what it names now.
 * False when there was none waiting (done before, or joined while welcome was off): once only.
 */
export async function completeAwaitingGreeting(
  db: Db,
  key: GreetingKey,
  values: Pick<WelcomeGreetingRow, 'username' | 'answers' | 'memberCount' | 'raid'>,
): Promise<boolean> {
  const rows = await db
    .update(welcomeGreetings)
    .set({ ...values, awaiting: false, heardAt: new Date() })
    .where(and(rowKey({ ...key, kind: 'welcome' }), eq(welcomeGreetings.awaiting, true)))
    .returning({ userId: welcomeGreetings.userId });
  return rows.length > 0;
}

/** A member who left before finishing Onboarding is not greeted when they come back another time. */
export async function dropAwaitingGreetings(db: Db, guildId: string, userId: string): Promise<void> {
  await db
    .delete(welcomeGreetings)
    .where(
      and(
        eq(welcomeGreetings.guildId, guildId),
        eq(welcomeGreetings.userId, userId),
        eq(welcomeGreetings.awaiting, true),
      ),
    );
}

/**
 * Forgets a guild's greetings done (posted or dropped) before `doneBefore`, and those still
 * waiting for Onboarding since before `awaitingBefore`: a record is only needed while a replayed
 * event or a retried post could still come (minutes), so the table holds about a day of joins.
 */
export async function pruneGreetings(
  db: Db,
  guildId: string,
  doneBefore: Date,
  awaitingBefore: Date,
): Promise<void> {
  await db.execute(sql`
    delete from welcome_greetings
    where guild_id = ${guildId}
      and ((greeted_at is not null and greeted_at < ${doneBefore})
        or (skipped is not null and heard_at < ${doneBefore})
        or (awaiting and heard_at < ${awaitingBefore}))`);
}

/** Guilds with greetings (or goodbyes) owed and not yet posted: what a starting worker queues again. */
export async function guildsOwingGreetings(
  db: Db,
): Promise<Array<{ guildId: string; kind: WelcomeGreetingKind; raid: boolean }>> {
  return db
    .selectDistinct({
      guildId: welcomeGreetings.guildId,
      kind: welcomeGreetings.kind,
      raid: welcomeGreetings.raid,
    })
    .from(welcomeGreetings)
    .where(
      and(
        isNull(welcomeGreetings.greetedAt),
        isNull(welcomeGreetings.skipped),
        eq(welcomeGreetings.awaiting, false),
      ),
    );
}
