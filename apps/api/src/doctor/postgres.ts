/** The doctor's PostgreSQL checks: reachable, migrated to the newest migration; the read replica. */
import { createDb, migrationStatus, redactUrl } from '@spacecadet/db';
import { sql } from 'drizzle-orm';
import { CHECK_TIMEOUT_MS, type CheckLine, fail, pass, reasonOf } from './check.ts';

export async function checkPostgres(databaseUrl: string): Promise<CheckLine> {
  const where = redactUrl(databaseUrl);
  let status: Awaited<ReturnType<typeof migrationStatus>>;
  try {
    status = await migrationStatus(databaseUrl, CHECK_TIMEOUT_MS);
  } catch (error) {
    return fail(
      `PostgreSQL at ${where} unreachable (${reasonOf(error)})`,
      'Start PostgreSQL or correct DATABASE_URL.',
    );
  }
  if (status.pending > 0) {
    return fail(
      `PostgreSQL at ${where} not migrated: ${status.applied ?? 'no migration'} applied, ${status.pending} pending up to ${status.latest}`,
      'Run `pnpm db:migrate` (with compose: `docker compose run --rm migrate`).',
    );
  }
  return pass(`PostgreSQL at ${where} reachable, migrated to ${status.latest}`);
}

/**
 * DATABASE_READ_URL, when set: reachable, and a streaming replica (in recovery), with how far
 * behind it replays. A replica that is down does not make the API unready (its reads go to the
 * primary), so this line is where an operator learns of it.
 */
export async function checkReadReplica(readUrl: string): Promise<CheckLine> {
  const where = redactUrl(readUrl);
  const handle = createDb(readUrl, { max: 1, connectTimeoutMs: CHECK_TIMEOUT_MS, applicationName: 'doctor' });
  try {
    const result = await handle.db.execute<{ recovering: boolean; lag: string | null }>(
      sql`select pg_is_in_recovery() as recovering,
        extract(epoch from now() - pg_last_xact_replay_timestamp())::text as lag`,
    );
    const row = result.rows[0];
    if (!row?.recovering) {
      return fail(
        `Read replica at ${where} is not a replica (not in recovery): its data is not the primary's`,
        'Point DATABASE_READ_URL at a streaming replica of DATABASE_URL, or unset it.',
      );
    }
    // The time since the last replayed commit: also grows on a primary with no writes.
    const lag =
      row.lag === null ? 'nothing replayed yet' : `last replayed commit ${Number(row.lag).toFixed(1)} s ago`;
    return pass(`Read replica at ${where} reachable and replaying (${lag})`);
  } catch (error) {
    return fail(
      `Read replica at ${where} unreachable (${reasonOf(error)}); the API reads the primary meanwhile`,
      'Start the replica, or correct or unset DATABASE_READ_URL.',
    );
  } finally {
    await handle.close();
  }
}
