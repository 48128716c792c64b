import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/** The committed SQL migrations, found next to this package's source so any cwd works. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../drizzle', import.meta.url));

// Arbitrary but fixed: every process that migrates takes the same session-level lock, so a
// compose migrate service, `pnpm dev` and parallel test files never race on DDL.
const MIGRATION_LOCK_KEY = 7_420_113_001;

/** Applies every pending migration to `databaseUrl`. Safe to call from many processes at once. */
export async function runMigrations(databaseUrl: string): Promise<void> {
  // One dedicated connection: the advisory lock belongs to the session that runs the DDL.
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'spacecadet-migrate' });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/** Where a database stands against the committed migrations (`pnpm doctor`). */
export interface MigrationStatus {
  /** The newest committed migration's tag, e.g. `0015_history_entry_names`. */
  latest: string;
  /** The newest migration applied to the database (null: none, or no migration table). */
  applied: string | null;
  /** Committed migrations not applied yet. */
  pending: number;
}

interface JournalEntry {
  when: number;
  tag: string;
}

/** The committed migrations, oldest first, from drizzle's journal. */
function journal(): JournalEntry[] {
  const file = `${MIGRATIONS_FOLDER}/meta/_journal.json`;
  return (JSON.parse(readFileSync(file, 'utf8')) as { entries: JournalEntry[] }).entries;
}

/**
 * Compares the database's applied migrations (drizzle's `drizzle.__drizzle_migrations`, whose
 * `created_at` is each journal entry's `when`) with the committed journal. Throws when the
 * database cannot be reached within `timeoutMs`.
 */
export async function migrationStatus(databaseUrl: string, timeoutMs = 5_000): Promise<MigrationStatus> {
  const entries = journal();
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'spacecadet-doctor',
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on('error', () => {});
  await client.connect();
  try {
    const exists = await client.query<{ table: string | null }>(
      `SELECT to_regclass('drizzle.__drizzle_migrations')::text AS "table"`,
    );
    const applied = new Set<number>();
    if (exists.rows[0]?.table) {
      const rows = await client.query<{ created_at: string }>(
        'SELECT created_at FROM drizzle.__drizzle_migrations',
      );
      for (const row of rows.rows) applied.add(Number(row.created_at));
    }
    const done = entries.filter((entry) => applied.has(entry.when));
    return {
      latest: entries.at(-1)?.tag ?? '',
      applied: done.at(-1)?.tag ?? null,
      pending: entries.length - done.length,
    };
  } finally {
    await client.end();
  }
}
