/**
 * The db package's one env reader, for its CLI (`pnpm db:migrate`). Library code takes URLs as
 * arguments; tests use `testing.ts`. Plain checks: this package has no schema library.
 */

import { EnvError } from '@spacecadet/contract';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/spacecadet';

export interface MigrateEnv {
  databaseUrl: string;
}

function isPostgresUrl(value: string): boolean {
  try {
    return /^postgres(ql)?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Reads and validates DATABASE_URL (blank means the default); throws naming it when bad. */
export function loadMigrateEnv(env: NodeJS.ProcessEnv = process.env): MigrateEnv {
  const databaseUrl = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  if (!isPostgresUrl(databaseUrl)) throw new EnvError(['DATABASE_URL: must be a postgres:// URL']);
  return { databaseUrl };
}
