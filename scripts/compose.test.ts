/**
 * No Docker engine runs on the build machines, so this checks docker-compose.yml the way we can:
 * Debian's docker-compose validates it, and every service's command must exist in the repo.
 * Rendered as a plain `docker compose up` reads it: docker-compose.yml plus
 * docker-compose.override.yml (the demo's published ports). The live deployment is
 * scripts/live-compose.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const rendered = execFileSync('docker-compose', ['config'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, DISCORD_BOT_TOKEN: '' },
});
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

function serviceBlock(name: string): string {
  const match = new RegExp(`^  ${name}:\\n((?:    .*\\n|\\n)*)`, 'm').exec(rendered);
  if (!match?.[1]) throw new Error(`service ${name} missing from docker-compose config`);
  return match[1];
}

function stageCommand(target: string): string[] {
  const stage = new RegExp(`^FROM base AS ${target}\\n([\\s\\S]*?)(?=^FROM |$(?![\\s\\S]))`, 'm').exec(
    dockerfile,
  );
  const cmd = stage?.[1] ? /^CMD (\[.*\])$/m.exec(stage[1]) : null;
  if (!cmd?.[1]) throw new Error(`Dockerfile stage ${target} has no CMD`);
  return JSON.parse(cmd[1]) as string[];
}

function scriptExists(command: string[]): boolean {
  const [bin, ...args] = command;
  if (bin !== 'pnpm') return false;
  if (args[0] === '--filter') {
    const pkgName = args[1] ?? '';
    const script = args[2] ?? '';
    const dir = ['apps', 'packages']
      .flatMap((d) =>
        ['api', 'worker', 'dashboard', 'contract', 'db', 'core', 'discord-sandbox', 'discord-proxy'].map(
          (p) => join(root, d, p),
        ),
      )
      .find(
        (d) =>
          existsSync(join(d, 'package.json')) &&
          JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')).name === pkgName,
      );
    if (!dir) return false;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    const entry = pkg.scripts?.[script];
    if (!entry) return false;
    const file = /tsx (\S+\.ts)/.exec(entry)?.[1];
    return file === undefined || existsSync(join(dir, file));
  }
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return args[0] !== undefined && args[0] in rootPkg.scripts;
}

describe('docker-compose.yml', () => {
  it("copies every workspace package's package.json before the frozen install", () => {
    const copied = [...dockerfile.matchAll(/^COPY ((?:apps|packages)\/[\w-]+)\/package\.json /gm)].map(
      (match) => match[1],
    );
    const workspace = ['apps', 'packages'].flatMap((dir) =>
      readdirSync(join(root, dir))
        .filter((name) => existsSync(join(root, dir, name, 'package.json')))
        .map((name) => `${dir}/${name}`),
    );
    expect(copied.sort()).toEqual(workspace.sort());
  });

  it('declares every service of the product', () => {
    for (const name of [
      'postgres',
      'redis',
      'migrate',
      'sandbox',
      'discord-proxy',
      'discord-proxy-2',
      'api',
      'worker',
      'worker-shard-1',
      'worker-pool',
      'dashboard',
    ]) {
      expect(serviceBlock(name)).toBeTruthy();
    }
  });

  it('publishes the sandbox, the api and the dashboard on their demo ports', () => {
    for (const [name, port] of [
      ['sandbox', 4100],
      ['api', 4000],
      ['dashboard', 5173],
    ] as const) {
      expect(serviceBlock(name), name).toMatch(
        new RegExp(`^ {4}- published: ${port}\\n {6}target: ${port}$`, 'm'),
      );
    }
    expect(serviceBlock('sandbox')).not.toMatch(/profiles:/);
    expect(rendered).not.toMatch(/^ {2}caddy:/m);
  });

  it('health-checks Postgres and Redis and makes api and worker wait for the migration', () => {
    expect(serviceBlock('postgres')).toContain('pg_isready');
    expect(serviceBlock('redis')).toContain('redis-cli');
    for (const name of ['api', 'worker', 'worker-shard-1', 'worker-pool']) {
      expect(serviceBlock(name)).toMatch(/migrate:\n\s+condition: service_completed_successfully/);
    }
  });

  it('sends the bot requests of the api and both workers through two health-checked Discord proxies sharing a lease', () => {
    for (const proxy of ['discord-proxy', 'discord-proxy-2']) {
      const block = serviceBlock(proxy);
      expect(block, proxy).toContain('/healthz');
      expect(block, proxy).not.toMatch(/published/);
      // The lease that names the active one lives in the product's Redis, under its prefix.
      expect(block, proxy).toMatch(/^ {6}REDIS_URL: redis:\/\/redis:6379$/m);
      expect(block, proxy).toMatch(/^ {6}REDIS_PREFIX: spacecadet$/m);
      expect(block, proxy).toMatch(
        new RegExp(`^ {6}DISCORD_PROXY_ADVERTISE_URL: http://${proxy}:4200/api$`, 'm'),
      );
      expect(block, proxy).toMatch(/redis:\n\s+condition: service_healthy/);
    }
    for (const name of ['api', 'worker', 'worker-shard-1']) {
      expect(serviceBlock(name), name).toMatch(
        /^ {6}DISCORD_PROXY_URL: http:\/\/discord-proxy:4200\/api,http:\/\/discord-proxy-2:4200\/api$/m,
      );
      expect(serviceBlock(name), name).toMatch(/discord-proxy:\n\s+condition: service_healthy/);
      expect(serviceBlock(name), name).toMatch(/discord-proxy-2:\n\s+condition: service_healthy/);
    }
  });

  it.each(['migrate', 'sandbox', 'discord-proxy', 'discord-proxy-2', 'api', 'worker', 'dashboard'])(
    'service %s runs a command that exists',
    (name) => {
      const target = /target: (\S+)/.exec(serviceBlock(name))?.[1];
      expect(target).toBe(name.replace(/-2$/, ''));
      const command = stageCommand(target ?? '');
      expect(scriptExists(command), command.join(' ')).toBe(true);
    },
  );

  it('runs the worker as two shard processes that together cover every shard once', () => {
    const workers = [...rendered.matchAll(/^ {2}([a-z0-9-]+):\n/gm)]
      .map((match) => match[1] ?? '')
      .filter(
        (name) => /target: worker\n/.test(serviceBlock(name)) && !/^ {4}profiles:/m.test(serviceBlock(name)),
      );
    expect(workers.sort()).toEqual(['worker', 'worker-shard-1']);
    const env = (name: string, key: string) =>
      new RegExp(`^      ${key}: '?([^'\\n]*)'?$`, 'm').exec(serviceBlock(name))?.[1];
    // Every process must agree on the shard count, or guilds would be routed to no one or twice,
    // and the api with them: it queues a guild's jobs for the worker holding its shard.
    expect(['api', ...workers].map((name) => env(name, 'SHARD_COUNT'))).toEqual(['2', '2', '2']);
    const ids = workers.flatMap((name) => (env(name, 'SHARD_IDS') ?? '').split(',').map(Number));
    expect(ids.sort()).toEqual([0, 1]);
    // Both workers share one configuration apart from their shards.
    const withoutShards = (name: string) => serviceBlock(name).replace(/^ {6}SHARD_IDS: .*\n/m, '');
    expect(withoutShards('worker-shard-1')).toBe(withoutShards('worker'));
  });

  it('offers a profile scale of identical worker replicas that claim free shards and share the rate limit', () => {
    const block = serviceBlock('worker-pool');
    expect(block).toMatch(/^ {4}profiles:\n {4}- scale$/m);
    expect(/target: (\S+)/.exec(block)?.[1]).toBe('worker');
    expect(block).toMatch(/^ {6}SHARD_IDS: auto$/m);
    // As many replicas as shards by default, counted as the api counts them.
    expect(block).toMatch(/^ {6}SHARD_COUNT: '2'$/m);
    expect(serviceBlock('api')).toMatch(/^ {6}SHARD_COUNT: '2'$/m);
    expect(block).toMatch(/^ {4}deploy:\n {6}replicas: 2$/m);
    expect(block).toMatch(
      /^ {6}DISCORD_PROXY_URL: http:\/\/discord-proxy:4200\/api,http:\/\/discord-proxy-2:4200\/api$/m,
    );
    expect(block).toMatch(/discord-proxy:\n\s+condition: service_healthy/);
    // Outside the profile, `docker compose up` runs the two fixed workers only.
    for (const name of ['worker', 'worker-shard-1']) expect(serviceBlock(name)).not.toMatch(/profiles:/);
  });

  it('gives api and workers a /metrics listener on the compose network, never published', () => {
    for (const name of ['api', 'worker', 'worker-shard-1', 'worker-pool']) {
      const block = serviceBlock(name);
      expect(block, name).toMatch(/^ {6}METRICS_PORT: '9464'$/m);
      // The default 127.0.0.1 would be unreachable from a Prometheus in another container.
      expect(block, name).toMatch(/^ {6}METRICS_HOST: 0\.0\.0\.0$/m);
    }
    expect(rendered).not.toMatch(/(?:published|target): '?9464/);
  });
});
