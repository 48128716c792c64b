/** The doctor's PostgreSQL check: reachable, and migrated to the newest committed migration. */
import { migrationStatus, redactUrl } from '@spacecadet/db';
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
