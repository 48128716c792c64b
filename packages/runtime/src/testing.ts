import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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
  /** Stops the servers and removes their files (safe to call twice). */
  stop(): Promise<void>;
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

/**
 * Starts a three-master Redis Cluster from the `redis-server` and `redis-cli` on PATH (Debian's
 * redis-server package): three servers with cluster mode on and no persistence, joined with
 * `redis-cli --cluster create`, and waits until every node says `cluster_state:ok`. Call `stop` in afterAll: it kills the
 * servers and removes their directory even when the start failed half way.
 */
export async function startRedisCluster(): Promise<TestRedisCluster> {
  const run = promisify(execFile);
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  const servers: ChildProcess[] = [];
  const ports: number[] = [];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            if (server.exitCode !== null || server.signalCode !== null) return resolve();
            server.once('exit', () => resolve());
            server.kill('SIGKILL');
          }),
      ),
    );
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
      const server = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
        ],
        { stdio: 'ignore' },
      );
      servers.push(server);
    }
    const cli = (port: number, ...args: string[]) => run('redis-cli', ['-p', String(port), ...args]);
    // Up once each answers PING.
    for (const port of ports) {
      for (let attempt = 0; ; attempt += 1) {
        const answer = await cli(port, 'ping').catch(() => ({ stdout: '' }));
        if (answer.stdout.trim() === 'PONG') break;
        if (attempt > 200) throw new Error(`redis-server on port ${port} did not start`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of ports) {
      for (let attempt = 0; ; attempt += 1) {
        const info = (await cli(port, 'cluster', 'info')).stdout;
        if (info.includes('cluster_state:ok')) break;
        if (attempt > 400)
          throw new Error(`the cluster node on port ${port} never reported cluster_state:ok`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
  return { nodes, nodesEnv: nodes.map((node) => `${node.host}:${node.port}`).join(','), stop };
}
