/**
 * A private PostgreSQL primary with a streaming replica, for tests of code that reads from a
 * replica (the API's DATABASE_READ_URL). Both clusters live in a temp dir, on free ports, started
 * with the server binaries of the machine (`/usr/lib/postgresql/<version>/bin`, as the Debian
 * `postgresql` package installs them, or a usual bin dir): a real `pg_basebackup -R`, so replay
 * can be paused and the replica stopped as in production.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from '@spacecadet/testing';
import pg from 'pg';

const run = promisify(execFile);

const BINARIES = ['initdb', 'pg_ctl', 'pg_basebackup'] as const;

/** The directory holding initdb, pg_ctl and pg_basebackup; null when this machine has none. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const dirs = [
    ...versions.map((version) => join(root, version, 'bin')),
    // Where other installs put them (source builds, Homebrew, distributions without versioned dirs).
    '/usr/local/pgsql/bin',
    '/opt/homebrew/bin',
    '/usr/local/bin',
    '/usr/bin',
  ];
  return dirs.find((dir) => BINARIES.every((bin) => existsSync(join(dir, bin)))) ?? null;
}

export interface StreamingReplica {
  /** The primary's `postgres` database (user postgres, trust). */
  primaryUrl: string;
  /** The replica's `postgres` database: the same data, read-only, streamed from the primary. */
  replicaUrl: string;
  /** Stops applying the streamed WAL (`pg_wal_replay_pause()`): the replica keeps what it has. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** Stops the replica server (fast shutdown); the primary goes on. */
  stopReplica(): Promise<void>;
  /** Stops both servers and deletes their directories. Safe to call twice or after a failed start. */
  close(): Promise<void>;
}

/**
 * initdb refuses to run as root, and the servers refuse too: as root (a container, CI), every
 * server command runs as the `postgres` OS user the package created.
 */
async function asPostgres(bin: string, args: string[]): Promise<string> {
  const root = process.getuid?.() === 0;
  const { stdout } = root
    ? await run('runuser', ['-u', 'postgres', '--', bin, ...args])
    : await run(bin, args);
  return stdout;
}

async function query(url: string, text: string): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** Starts the primary, base-backs it up into a replica, starts that and waits until it streams. */
export async function startStreamingReplica(): Promise<StreamingReplica> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error('No PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) found');
  const tool = (name: string) => join(bin, name);
  // A dir the postgres user owns (mktemp as that user), so the clusters inside it are theirs.
  const base = (await asPostgres('mktemp', ['-d', '/tmp/spacecadet-replica-XXXXXX'])).trim();
  const primaryDir = join(base, 'primary');
  const replicaDir = join(base, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const started: string[] = [];

  // Small and unsafe on purpose: a throwaway pair that must not crowd a shared test machine.
  const serverOptions = (port: number) =>
    [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${base}`,
      '-c fsync=off',
      '-c shared_buffers=16MB',
      '-c max_connections=40',
    ].join(' ');
  const startServer = async (dir: string, port: number) => {
    await asPostgres(tool('pg_ctl'), [
      '-D',
      dir,
      '-o',
      serverOptions(port),
      '-l',
      `${dir}.log`,
      '-w',
      'start',
    ]);
    started.push(dir);
  };
  const stopServer = async (dir: string) => {
    if (!started.includes(dir)) return;
    await asPostgres(tool('pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']).catch(() => {});
    started.splice(started.indexOf(dir), 1);
  };
  const close = async () => {
    for (const dir of [...started].reverse()) await stopServer(dir);
    await rm(base, { recursive: true, force: true });
  };

  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  try {
    await asPostgres(tool('initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
    // initdb's own file already trusts local replication; this line says so whatever its version.
    await appendFile(join(primaryDir, 'pg_hba.conf'), '\nhost replication postgres 127.0.0.1/32 trust\n');
    await appendFile(join(primaryDir, 'postgresql.conf'), '\nwal_level = replica\nmax_wal_senders = 4\n');
    await startServer(primaryDir, primaryPort);
    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming replica.
    await asPostgres(tool('pg_basebackup'), [
      '-R',
      '-D',
      replicaDir,
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-X',
      'stream',
    ]);
    await startServer(replicaDir, replicaPort);
    await waitFor('the replica to be in recovery', async () => {
      const [row] = await query(replicaUrl, 'select pg_is_in_recovery() as recovering');
      return row?.recovering === true;
    });
  } catch (error) {
    await close();
    throw error;
  }

  return {
    primaryUrl,
    replicaUrl,
    async pauseReplay() {
      await query(replicaUrl, 'select pg_wal_replay_pause()');
      await waitFor('replay to pause', async () => {
        const [row] = await query(replicaUrl, 'select pg_get_wal_replay_pause_state() as state');
        return row?.state === 'paused';
      });
    },
    async resumeReplay() {
      await query(replicaUrl, 'select pg_wal_replay_resume()');
    },
    async caughtUp() {
      const [primary] = await query(primaryUrl, 'select pg_current_wal_lsn()::text as lsn');
      await waitFor('the replica to replay the primary', async () => {
        const [row] = await query(
          replicaUrl,
          `select pg_last_wal_replay_lsn() >= '${String(primary?.lsn)}'::pg_lsn as done`,
        );
        return row?.done === true;
      });
    },
    stopReplica: () => stopServer(replicaDir),
    close,
  };
}
