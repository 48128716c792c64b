/**
 * The live deployment (README "Go live"): `docker compose -f docker-compose.yml -f
 * docker-compose.live.yml up -d`, rendered by Debian's docker-compose (no engine here). It must
 * run without the sandbox, in production, on real Discord, with only Caddy published, and
 * compose itself must refuse to render it without each secret or public address.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** Everything docker-compose.live.yml requires, as an operator's `.env` would give it. */
const LIVE_ENV = {
  DISCORD_BOT_TOKEN: 'live-bot-token',
  DISCORD_CLIENT_ID: '123456789012345678',
  DISCORD_CLIENT_SECRET: 'live-client-secret',
  // Fresh each run, so no test publishes a session secret (contract's production-env test greps for them).
  SESSION_SECRET: randomBytes(32).toString('hex'),
  PUBLIC_API_URL: 'https://api.cadet.example.org',
  DASHBOARD_URL: 'https://cadet.example.org',
  POSTGRES_PASSWORD: '7c1e0a9b2d4f6e8a0c2e4f6a8b0d2f4e',
} as const;

function renderLive(env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  // Only PATH and HOME from this machine: a variable set here must not stand in for one unset.
  const result = spawnSync(
    'docker-compose',
    ['-f', join(root, 'docker-compose.yml'), '-f', join(root, 'docker-compose.live.yml'), 'config'],
    { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const live = renderLive(LIVE_ENV);
const rendered = live.stdout;

function serviceBlock(name: string): string {
  const match = new RegExp(`^  ${name}:\\n((?:    .*\\n|\\n)*)`, 'm').exec(rendered);
  if (!match?.[1]) throw new Error(`service ${name} missing from the live config`);
  return match[1];
}

const envValue = (name: string, key: string) =>
  new RegExp(`^ {6}${key}: '?([^'\\n]*)'?$`, 'm').exec(serviceBlock(name))?.[1];

/** The services `up -d` starts: every one outside a profile. */
function startedServices(): string[] {
  return [...rendered.matchAll(/^ {2}([a-z0-9-]+):\n/gm)]
    .map((match) => match[1] ?? '')
    .filter((name) => !/^ {4}profiles:/m.test(serviceBlock(name)));
}

describe('docker-compose.live.yml', () => {
  it('renders on top of docker-compose.yml given the required variables', () => {
    expect(live.stderr).not.toMatch(/error/i);
    expect(live.status).toBe(0);
    expect(startedServices().sort()).toEqual([
      'api',
      'caddy',
      'dashboard',
      'discord-proxy',
      'discord-proxy-2',
      'migrate',
      'postgres',
      'redis',
      'worker',
      'worker-shard-1',
    ]);
  });

  it.each(Object.keys(LIVE_ENV))('refuses to render without %s, naming it', (name) => {
    for (const value of [undefined, '']) {
      const env: Record<string, string> = { ...LIVE_ENV };
      if (value === undefined) delete env[name];
      else env[name] = value;
      const result = renderLive(env);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(`set ${name} in .env`);
    }
  });

  it('never starts the sandbox and points every process at real Discord', () => {
    expect(serviceBlock('sandbox')).toMatch(/^ {4}profiles:\n {4}- demo-sandbox$/m);
    // The sandbox's own (never started) block aside, nothing names it or its credentials.
    const others = rendered.replace(`  sandbox:\n${serviceBlock('sandbox')}`, '');
    expect(others).toMatch(/^ {2}api:$/m);
    expect(others).not.toMatch(/sandbox|:4100|sandbox-secret|sandbox-bot-token/);
    for (const name of [
      'migrate',
      'api',
      'worker',
      'worker-shard-1',
      'worker-pool',
      'discord-proxy',
      'discord-proxy-2',
    ]) {
      expect(envValue(name, 'DISCORD_API_BASE'), name).toBe('https://discord.com/api');
    }
    for (const name of ['migrate', 'api', 'worker', 'worker-shard-1', 'worker-pool', 'dashboard']) {
      expect(envValue(name, 'DISCORD_OAUTH_BASE'), name).toBe('https://discord.com');
    }
  });

  it('runs every process of ours in production with the secret and the public addresses given, no demo fallback', () => {
    for (const name of ['migrate', 'api', 'worker', 'worker-shard-1', 'worker-pool', 'dashboard']) {
      expect(envValue(name, 'NODE_ENV'), name).toBe('production');
      expect(envValue(name, 'SESSION_SECRET'), name).toBe(LIVE_ENV.SESSION_SECRET);
      expect(envValue(name, 'PUBLIC_API_URL'), name).toBe(LIVE_ENV.PUBLIC_API_URL);
      expect(envValue(name, 'DASHBOARD_URL'), name).toBe(LIVE_ENV.DASHBOARD_URL);
    }
    for (const name of ['migrate', 'api', 'worker', 'worker-shard-1', 'worker-pool']) {
      expect(envValue(name, 'DISCORD_BOT_TOKEN'), name).toBe(LIVE_ENV.DISCORD_BOT_TOKEN);
      expect(envValue(name, 'DISCORD_CLIENT_SECRET'), name).toBe(LIVE_ENV.DISCORD_CLIENT_SECRET);
      expect(envValue(name, 'DATABASE_URL'), name).toBe(
        `postgres://postgres:${LIVE_ENV.POSTGRES_PASSWORD}@postgres:5432/spacecadet`,
      );
    }
    expect(envValue('postgres', 'POSTGRES_PASSWORD')).toBe(LIVE_ENV.POSTGRES_PASSWORD);
    expect(rendered).not.toMatch(/compose-demo-secret|postgres:postgres@/);
    // The dashboard server serves a browser app: it gets no database, bot token or client secret.
    for (const key of ['DATABASE_URL', 'DISCORD_BOT_TOKEN', 'DISCORD_CLIENT_SECRET']) {
      expect(envValue('dashboard', key), key).toBeUndefined();
    }
  });

  it('publishes Caddy alone, on 80 and 443, with its certificates in volumes', () => {
    const published = [...rendered.matchAll(/^ {4}- (?:protocol: \w+\n {6})?published: (\d+)$/gm)].map(
      (match) => match[1],
    );
    expect(published).toEqual(['80', '443', '443']);
    const caddy = serviceBlock('caddy');
    expect(caddy).toMatch(/^ {4}image: caddy:2$/m);
    expect(caddy).toMatch(/- published: 443\n {6}target: 443$/m);
    expect(caddy).toMatch(/caddy_data:\/data/);
    expect(caddy).toMatch(/caddy_config:\/config/);
    expect(caddy).toMatch(/ops\/caddy\/Caddyfile:\/etc\/caddy\/Caddyfile:ro/);
    expect(envValue('caddy', 'DASHBOARD_URL')).toBe(LIVE_ENV.DASHBOARD_URL);
    expect(envValue('caddy', 'PUBLIC_API_URL')).toBe(LIVE_ENV.PUBLIC_API_URL);
  });

  it('makes the API trust the one proxy hop in front of it, Caddy', () => {
    expect(envValue('api', 'TRUST_PROXY')).toBe('1');
  });
});
