import { join } from 'node:path';
import { type CollectedRun, productionTestEnv, runCollecting } from '@spacecadet/testing';
import { describe, expect, it } from 'vitest';

/**
 * Issue 36 §1: with NODE_ENV=production and the compose demo's SESSION_SECRET, each real entry
 * point (API, worker, dashboard server) exits 1 before listening, naming the variable with a
 * sentence on the published secret. The URLs and Discord credentials are fit for production, so
 * the secret is the only refusal.
 */

const root = join(import.meta.dirname, '..');
const DEMO_SECRET = 'compose-demo-secret-change-me-before-going-public';

const ENV = {
  ...productionTestEnv(),
  SESSION_SECRET: DEMO_SECRET,
  DISCORD_API_BASE: 'https://discord.com/api',
  // A dead address: nothing may get as far as connecting.
  DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
  REDIS_URL: 'redis://127.0.0.1:1',
  ENV_FILE: '',
};

function run(cwd: string, entry: string): Promise<CollectedRun> {
  return runCollecting(process.execPath, ['--import', 'tsx', entry], {
    cwd: join(root, cwd),
    env: { PATH: process.env.PATH, ...ENV },
  });
}

const SENTENCE =
  /SESSION_SECRET: is a secret published in this repository \(the demo's\), so anyone can forge sessions with it; set a random one/;

describe('production refusals of the real entry points', () => {
  for (const [name, cwd, entry] of [
    ['the API (server.ts)', 'apps/api', 'src/server.ts'],
    ['the worker (main.ts)', 'apps/worker', 'src/main.ts'],
    ['the dashboard server (serve.ts)', 'apps/dashboard', 'server/serve.ts'],
  ] as const) {
    it(`${name} exits 1 on the demo SESSION_SECRET, naming it in one sentence`, async () => {
      const { code, output } = await run(cwd, entry);
      expect(output).toMatch(SENTENCE);
      expect(output).not.toMatch(/PUBLIC_API_URL|DASHBOARD_URL|DISCORD_/);
      expect(code).toBe(1);
    });
  }
});
