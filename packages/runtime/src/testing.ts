import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** For tests of what `metrics-server.ts` serves: the API's and the worker's metrics tests read it with this. */

/** One sample of a Prometheus text exposition. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a `/metrics` answer (no escaped quotes in our label values). */
export function parsePrometheusSamples(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match?.[1] || match[3] === undefined) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)) {
      if (key !== undefined && value !== undefined) labels[key] = value;
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** A throwaway Redis Cluster of three masters (no replicas), for tests that must run on one. */
export interface TestRedisCluster {
  /** The masters, as REDIS_CLUSTER_NODES lists seed nodes. */
  nodes: Array<{ host: string; port: number }>;
  /** REDIS_CLUSTER_NODES's value for these nodes. */
  nodesEnv: string;
  /**
   * Kills the master on `port` (SIGKILL: what a crash does), starts it again in place (same port,
   * data directory and nodes.conf) and waits until every node reports `cluster_state:ok`. Returns
   * the new server's pid. Only a `persistent` cluster gets its data back.
   */
  restart(port: number): Promise<number>;
  /** Stops the servers and removes their files (safe to call twice). */
  stop(): Promise<void>;
}

export interface TestRedisClusterOptions {
  /**
   * What the product calls persistent (`redis-durability.ts`): an append-only file written with
   * `appendfsync always`, so a master killed and started again has every acknowledged write.
   * Default false: nothing is kept on disk.
   */
  persistent?: boolean;
}

/** A port free now whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(taken: ReadonlySet<number>): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (taken.has(port) || taken.has(port + 10_000) || taken.has(port - 10_000)) continue;
    if ((await free(port)) && (await free(port + 10_000))) return port;
  }
}

const run = promisify(execFile);
const cli = (port: number, ...args: string[]) => run('redis-cli', ['-p', String(port), ...args]);

/** Polls `check` every 25 ms until it holds; throws `failure` after `attempts` tries. */
async function pollUntil(check: () => Promise<boolean>, attempts: number, failure: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    if (await check()) return;
    if (attempt > attempts) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** One cluster node's server, its files in `dir` (its own: append-only files have fixed names). */
function spawnClusterNode(port: number, dir: string, persistent: boolean): ChildProcess {
  const persistence = persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  return spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, 'nodes.conf'),
      '--dir',
      dir,
      '--save',
      '',
      ...persistence,
      '--daemonize',
      'no',
    ],
    { stdio: 'ignore' },
  );
}

const answersPing = async (port: number) =>
  (await cli(port, 'ping').catch(() => ({ stdout: '' }))).stdout.trim() === 'PONG';

async function waitClusterOk(ports: readonly number[]): Promise<void> {
  for (const port of ports) {
    await pollUntil(
      async () =>
        (await cli(port, 'cluster', 'info').catch(() => ({ stdout: '' }))).stdout.includes(
          'cluster_state:ok',
        ),
      // A restarted master rejoins over the cluster bus; a busy machine can take seconds.
      2_400,
      `the cluster node on port ${port} never reported cluster_state:ok`,
    );
  }
}

function killServer(server: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve();
    server.once('exit', () => resolve());
    server.kill('SIGKILL');
  });
}

/**
 * Starts a three-master Redis Cluster from the `redis-server` and `redis-cli` on PATH (Debian's
 * redis-server package): three servers with cluster mode on (persistent or not, `options`), joined with
 * `redis-cli --cluster create`, and waits until every node says `cluster_state:ok`. Call `stop` in afterAll: it kills the
 * servers and removes their directory even when the start failed half way.
 */
export async function startRedisCluster(options: TestRedisClusterOptions = {}): Promise<TestRedisCluster> {
  const persistent = options.persistent ?? false;
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  const servers = new Map<number, ChildProcess>();
  const ports: number[] = [];
  const nodeDir = (port: number) => join(dir, String(port));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all([...servers.values()].map(killServer));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const taken = new Set<number>();
    for (let i = 0; i < 3; i += 1) {
      const port = await freeClusterPort(taken);
      taken.add(port);
      ports.push(port);
    }
    for (const port of ports) {
      await mkdir(nodeDir(port));
      servers.set(port, spawnClusterNode(port, nodeDir(port), persistent));
    }
    for (const port of ports) {
      await pollUntil(() => answersPing(port), 200, `redis-server on port ${port} did not start`);
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    await waitClusterOk(ports);
  } catch (error) {
    await stop();
    throw error;
  }
  const restart = async (port: number) => {
    const server = servers.get(port);
    if (!server || stopped) throw new Error(`no cluster node on port ${port}`);
    await killServer(server);
    const again = spawnClusterNode(port, nodeDir(port), persistent);
    servers.set(port, again);
    await pollUntil(() => answersPing(port), 400, `redis-server on port ${port} did not start again`);
    await waitClusterOk(ports);
    return again.pid ?? 0;
  };
  const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
  return { nodes, nodesEnv: nodes.map((node) => `${node.host}:${node.port}`).join(','), restart, stop };
}
