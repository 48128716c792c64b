/**
 * A member's erased XP stays erased: the guard between `DELETE /api/me/data` and the worker's
 * XP flush. The erase removes the member's fields from every buffered hash and every batch in
 * flight in Redis first, then, holding `XP_ERASE_LOCK` exclusively, records a marker per batch
 * that was in flight (a writer may have read it before the fields went) and deletes the rows.
 * Every batch write holds the same lock shared and leaves out the members marked for its batch,
 * so a write that committed before the erase is deleted by it, and one after it skips them.
 * Markers are rows of `xp_flush_batches` (`erased:<batch id>:<user id>`), pruned with the
 * batch ids after an hour, as a retried batch's own id is.
 */
import { guildOfXpBatch } from '@spacecadet/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { xpFlushBatches } from '../../schema/leveling.ts';

/** The advisory lock key (an arbitrary constant, "XPER" in ASCII) both sides take. */
export const XP_ERASE_LOCK = 0x58504552;

type Tx = Pick<Db, 'execute' | 'insert'>;

export function erasedMarker(batchId: string, userId: string): string {
  return `erased:${batchId}:${userId}`;
}

/**
 * The batch writer's first statement: commits without waiting for the WAL flush (see
 * `writeXpBatches`) and the erase lock held shared until commit, in one round trip.
 */
export async function beginXpWrite(tx: Tx): Promise<void> {
  await tx.execute(
    sql`select set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock_shared(${XP_ERASE_LOCK})`,
  );
}

/** The `<batch id>:<user id>` pairs an erase marked among these batches' members. */
export async function erasedInBatches(
  tx: Tx,
  batches: ReadonlyArray<{ batchId: string; guildId: string; members: ReadonlyArray<{ userId: string }> }>,
): Promise<Set<string>> {
  const markers = batches.flatMap((batch) => batch.members.map((m) => erasedMarker(batch.batchId, m.userId)));
  if (markers.length === 0) return new Set();
  // By guild first, as the table is keyed: a marker is stored under its batch's guild.
  const guilds = [...new Set(batches.map((batch) => batch.guildId))];
  const result = await tx.execute<{ batch_id: string }>(
    sql`select batch_id from ${xpFlushBatches}
        where guild_id = any(${sql.param(guilds)}::text[]) and batch_id = any(${sql.param(markers)}::text[])`,
  );
  return new Set(result.rows.map((row) => row.batch_id.slice('erased:'.length)));
}

/** The erase's side, in its transaction: the lock held exclusively, then the markers. */
export async function markErasedInBatches(
  tx: Tx,
  userId: string,
  batchIds: readonly string[],
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${XP_ERASE_LOCK})`);
  if (batchIds.length === 0) return;
  await tx
    .insert(xpFlushBatches)
    .values(
      batchIds.map((batchId) => ({
        guildId: guildOfXpBatch(batchId),
        batchId: erasedMarker(batchId, userId),
      })),
    )
    .onConflictDoNothing();
}
