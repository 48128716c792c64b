// `pnpm db:migrate`: creates the database if needed, applies migrations, exits.
// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { EnvError } from '@spacecadet/contract';
import { ensureDatabase, redactUrl } from './database.ts';
import { loadMigrateEnv } from './env.ts';
import { runMigrations } from './migrate.ts';

async function main(): Promise<void> {
  const { databaseUrl } = loadMigrateEnv();
  const created = await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl);
  console.log(`${created ? 'Created and migrated' : 'Migrated'} ${redactUrl(databaseUrl)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof EnvError) console.error(error.message);
    else console.error('Migration failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
