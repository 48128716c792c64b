import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The repo root's `.env` (what `.env.example` says to copy), read into `process.env` by every
 * process of ours (API, worker, sandbox, dashboard server, `pnpm dev`, `pnpm db:migrate`): each
 * entry point imports `@spacecadet/contract/env-file` first, so the file is read before any
 * module looks at the environment. A variable already set wins over the file.
 *
 * `ENV_FILE` names another file (empty: none). Under Vitest (`VITEST` is set, and inherited by
 * every process a test starts) no file is read unless `ENV_FILE` says so: a developer's `.env`
 * must not change what a test runs against.
 */
export const ROOT_ENV_FILE = fileURLToPath(new URL('../../../.env', import.meta.url));

/** Reads the env file this environment asks for; returns its path, or null when none was read. */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env): string | null {
  const file = env.ENV_FILE !== undefined ? env.ENV_FILE : env.VITEST ? '' : ROOT_ENV_FILE;
  if (file === '' || !existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}

loadEnvFile();
