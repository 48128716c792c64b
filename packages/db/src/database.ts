import pg from 'pg';

/** The database named in a connection URL (`/spacecadet` -> `spacecadet`). */
export function databaseNameOf(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (name === '') throw new Error(`No database name in URL: ${redactUrl(databaseUrl)}`);
  return name;
}

/** The same server URL pointing at another database. */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** A URL safe to print: the password is replaced. */
export function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<invalid url>';
  }
}

async function withMaintenanceClient<T>(
  serverUrl: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  // CREATE/DROP DATABASE cannot run inside the target database, so use `postgres`.
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  client.on('error', () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates the database named in `databaseUrl` unless it exists. Returns true if it created it. */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseNameOf(databaseUrl);
  return withMaintenanceClient(databaseUrl, async (client) => {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      return true;
    } catch (error) {
      // Another process created it between our check and CREATE: that is what we wanted.
      const code = (error as { code?: string }).code;
      if (code === '42P04' || code === '23505') return false;
      throw error;
    }
  });
}

/** Drops a database, disconnecting anyone still using it. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withMaintenanceClient(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  });
}
