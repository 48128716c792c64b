import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;
/** What `db.transaction(async (tx) => ...)` hands to its callback. */
export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface CreateDbOptions {
  /** Pool size; default 10. */
  max?: number;
  applicationName?: string;
  /** How long a new connection may take before the query fails; default: no limit (pg's). */
  connectTimeoutMs?: number;
  /** Called when an idle pooled connection dies (e.g. Postgres restarts); default: ignore. */
  onIdleError?: (error: Error) => void;
}

export interface DbHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function createDb(databaseUrl: string, opts: CreateDbOptions = {}): DbHandle {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.max ?? 10,
    ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
    ...(opts.connectTimeoutMs ? { connectionTimeoutMillis: opts.connectTimeoutMs } : {}),
  });
  // Without a listener, an idle connection killed by the server (restart, DROP DATABASE
  // WITH (FORCE) in tests) emits 'error' on the pool and crashes the process.
  pool.on('error', (error) => opts.onIdleError?.(error));
  const db = drizzle(pool, { schema });
  let closed: Promise<void> | undefined;
  return {
    db,
    pool,
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}
