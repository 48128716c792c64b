import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, loadApiConfig } from '@spacecadet/api';
import { botGuilds } from '@spacecadet/db';
import { createTestDatabase, type TestDatabase, testRedis } from '@spacecadet/db/testing';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { chromiumLaunchOptions, freePort, testStackEnv } from '@spacecadet/testing';
import { loadWorkerConfig, type RunningWorker, startWorker } from '@spacecadet/worker';
import { type BrowserContext, chromium } from 'playwright-core';
import { type DashboardServer, startDashboardServer } from '../server/server.ts';

export const SCREENSHOT_DIR =
  process.env.E2E_SCREENSHOT_DIR ?? fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

export interface Stack {
  dashboardUrl: string;
  apiUrl: string;
  sandbox: Sandbox;
  database: TestDatabase;
  /** The browser (a persistent profile); `restartBrowser` replaces it. */
  browser: BrowserContext;
  /**
   * Quits the browser and starts it again on the same profile (cookies, localStorage), as a user
   * restarting theirs; `browser` is the new one.
   */
  restartBrowser(): Promise<BrowserContext>;
  /** A browser of its own (another device): a fresh profile, gone when it closes. */
  otherBrowser(): Promise<BrowserContext>;
  /**
   * Every Content-Security-Policy violation any page of the browser reported (the dashboard
   * server's policy must let the built app do all it does): "<directive> <blocked URI> on <page>".
   */
  cspViolations: string[];
  /** 'worker' when the real worker runs, 'rows' when bot presence was inserted by hand. */
  botPresence: 'worker' | 'rows';
  /**
   * Ends a user's sessions as if their time were up: `expires_at` in the past (of the tab bearers
   * and of the browsers' sign-ins, so no refresh cookie renews them), and the API told to drop its
   * in-memory copies, as any change to a session must (README: Several API replicas).
   */
  expireSessionsOf(userId: string): Promise<void>;
  close(): Promise<void>;
}

/** Sandbox + API + worker + the built dashboard + a fresh headless Chromium profile. */
export async function startStack(distDir: string): Promise<Stack> {
  const [database, redis, sandbox] = await Promise.all([
    createTestDatabase('dashboard_e2e'),
    testRedis(),
    startSandbox({ port: 0 }),
  ]);
  const [apiPort, dashboardPort] = await Promise.all([freePort(), freePort()]);
  // The sandbox checks redirect_uri against the API's DASHBOARD_URL, and CORS allows only it.
  const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const env = {
    ...testStackEnv(database, redis, sandbox),
    DASHBOARD_URL: dashboardUrl,
    PUBLIC_API_URL: apiUrl,
    OWNER_USER_ID: SANDBOX_IDS.users.ada,
  };

  const base = loadApiConfig(env);
  const api = await buildApp(
    { ...base, rateLimit: { ...base.rateLimit, max: 100_000, exchangeMax: 10_000 } },
    { logger: false },
  );
  await api.listen({ port: apiPort, host: '127.0.0.1' });

  let worker: RunningWorker | null = null;
  try {
    worker = await startWorker(loadWorkerConfig(env));
  } catch (error) {
    console.warn('worker did not start; inserting bot_guilds rows instead:', error);
    await database.db.insert(botGuilds).values([
      { guildId: SANDBOX_IDS.guilds.station, name: 'Sandbox Station' },
      { guildId: SANDBOX_IDS.guilds.orbit, name: 'Other Orbit' },
    ]);
  }

  const dashboard: DashboardServer = await startDashboardServer({
    port: dashboardPort,
    host: '127.0.0.1',
    distDir,
    config: {
      apiUrl,
      discordClientId: SANDBOX_IDS.app,
      discordOauthBase: sandbox.oauthBase,
      // No internet here: the sandbox draws avatars and icons.
      cdnBase: sandbox.cdnBase,
      ownerUserId: SANDBOX_IDS.users.ada,
    },
  });

  const profileDir = await mkdtemp(join(tmpdir(), 'spacecadet-chromium-'));
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const cspViolations: string[] = [];
  const others: Array<{ browser: BrowserContext; dir: string }> = [];
  let browser = await launchBrowser(profileDir, cspViolations);

  return {
    dashboardUrl,
    apiUrl,
    sandbox,
    database,
    get browser() {
      return browser;
    },
    async restartBrowser() {
      await browser.close();
      browser = await launchBrowser(profileDir, cspViolations);
      return browser;
    },
    async otherBrowser() {
      const dir = await mkdtemp(join(tmpdir(), 'spacecadet-chromium-other-'));
      const other = await launchBrowser(dir, cspViolations);
      others.push({ browser: other, dir });
      return other;
    },
    cspViolations,
    botPresence: worker ? 'worker' : 'rows',
    async expireSessionsOf(userId) {
      if (!/^\d+$/.test(userId)) throw new Error(`not a user id: ${userId}`);
      await database.db.execute(
        `UPDATE sign_ins SET expires_at = now() - interval '1 minute' WHERE user_id = '${userId}'`,
      );
      const ended = await database.db.execute<{ id: string }>(
        `UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_id = '${userId}' RETURNING id`,
      );
      for (const { id } of ended.rows) await api.services.replicaCache.announce({ kind: 'session', id });
    },
    async close() {
      await browser.close().catch(() => undefined);
      await rm(profileDir, { recursive: true, force: true });
      for (const other of others) {
        await other.browser.close().catch(() => undefined);
        await rm(other.dir, { recursive: true, force: true });
      }
      await dashboard.close();
      await worker?.close();
      await api.close();
      await sandbox.close();
      await redis.close();
      await database.close();
    },
  };
}

/** Headless Chromium on a profile, reporting every CSP violation of its pages into `violations`. */
async function launchBrowser(profileDir: string, violations: string[]): Promise<BrowserContext> {
  const browser = await chromium.launchPersistentContext(profileDir, {
    ...chromiumLaunchOptions(),
    headless: true,
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
  });
  await browser.exposeBinding('__reportCspViolation', (_source, line: string) => {
    violations.push(line);
  });
  await browser.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (line: string) => void })
        .__reportCspViolation;
      report(`${event.effectiveDirective} ${event.blockedURI || 'inline'} on ${event.documentURI}`);
    });
  });
  return browser;
}
