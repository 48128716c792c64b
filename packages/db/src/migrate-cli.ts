// `pnpm db:migrate`: creates the database if needed, applies migrations, exits.
import { ensureDatabase, redactUrl } from './database.ts';
import { runMigrations } from './migrate.ts';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/spacecadet';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const created = await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl);
  console.log(`${created ? 'Created and migrated' : 'Migrated'} ${redactUrl(databaseUrl)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('Migration failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
