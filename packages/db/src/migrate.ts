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
