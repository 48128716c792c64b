/**
 * ops/caddy/Caddyfile, the HTTPS front of the live deployment, run by the real Caddy
 * (/usr/bin/caddy) in front of the real API and the real dashboard server. Only what must differ
 * here is set through the file's env placeholders: Caddy's own CA instead of Let's Encrypt
 * (`local_certs`), free ports, no admin endpoint, and the upstreams' local addresses.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, loadApiConfig } from '@spacecadet/api';
import { type DashboardServer, startDashboardServer } from '@spacecadet/dashboard/server';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { freePort, testStackEnv, waitFor } from '@spacecadet/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const CADDYFILE = join(root, 'ops', 'caddy', 'Caddyfile');
const HSTS = 'max-age=31536000; includeSubDomains';
/** The client's own address: not the one Caddy connects to the API from (127.0.0.1). */
const CLIENT_ADDRESS = '127.0.0.2';

let temp: string;
let database: TestDatabase;
let redis: TestRedis;
let sandbox: Sandbox;
let api: Awaited<ReturnType<typeof buildApp>>;
let dashboard: DashboardServer;
let caddy: ChildProcess;
let caddyLog = '';
const apiLog: string[] = [];
let httpsPort: number;
let httpPort: number;
let caCert: string;

/** The home directories Caddy keeps its certificates and config in: the temp dir, never ~. */
function caddyHomes(): Record<string, string> {
  return {
    HOME: temp,
    XDG_DATA_HOME: join(temp, 'data'),
    XDG_CONFIG_HOME: join(temp, 'config'),
  };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET over TLS to Caddy as `host` (SNI and Host), from CLIENT_ADDRESS, trusting only Caddy's CA. */
function get(host: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: httpsPort,
        path,
        servername: host,
        localAddress: CLIENT_ADDRESS,
        ca: caCert,
        headers: { host: `${host}:${httpsPort}`, ...headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'spacecadet-caddy-'));
  [database, redis, sandbox] = await Promise.all([
    createTestDatabase('caddy'),
    testRedis(),
    startSandbox({ port: 0 }),
  ]);
  const [apiPort, dashboardPort] = await Promise.all([freePort(), freePort()]);
  [httpsPort, httpPort] = await Promise.all([freePort(), freePort()]);
  const dashboardUrl = `https://dashboard.localhost:${httpsPort}`;
  const apiUrl = `https://api.localhost:${httpsPort}`;

  // As docker-compose.live.yml sets it for the API.
  const config = loadApiConfig({
    ...testStackEnv(database, redis, sandbox),
    PUBLIC_API_URL: apiUrl,
    DASHBOARD_URL: dashboardUrl,
    TRUST_PROXY: '1',
  });
  api = await buildApp(config, { logger: { level: 'info', stream: { write: (line) => apiLog.push(line) } } });
  await api.listen({ port: apiPort, host: '127.0.0.1' });

  // The dashboard server needs a built dist; a one-page one is all this test reads.
  const dist = join(temp, 'dist');
  await mkdir(dist);
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Space Cadet</title>');
  dashboard = await startDashboardServer({
    port: dashboardPort,
    host: '127.0.0.1',
    distDir: dist,
    config: {
      apiUrl,
      discordClientId: SANDBOX_IDS.app,
      discordOauthBase: sandbox.oauthBase,
      cdnBase: sandbox.cdnBase,
    },
  });

  caddy = spawn('/usr/bin/caddy', ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    cwd: temp,
    env: {
      PATH: process.env.PATH,
      ...caddyHomes(),
      DASHBOARD_URL: dashboardUrl,
      PUBLIC_API_URL: apiUrl,
      DASHBOARD_UPSTREAM: `127.0.0.1:${dashboardPort}`,
      API_UPSTREAM: `127.0.0.1:${apiPort}`,
      CADDY_GLOBAL_OPTIONS: ['admin off', 'local_certs', 'skip_install_trust', `http_port ${httpPort}`].join(
        '\n',
      ),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout?.on('data', (chunk: Buffer) => {
    caddyLog += chunk.toString();
  });
  caddy.stderr?.on('data', (chunk: Buffer) => {
    caddyLog += chunk.toString();
  });
  const rootCert = join(temp, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt');
  caCert = await waitFor(
    () => `Caddy's root certificate (Caddy said: ${caddyLog.slice(-2000)})`,
    () => {
      if (caddy.exitCode !== null) throw new Error(`caddy exited ${caddy.exitCode}`);
      return readFile(rootCert, 'utf8');
    },
  );
  // Serving once the certificate of each name is issued.
  await waitFor(
    () => `Caddy serving both names (Caddy said: ${caddyLog.slice(-2000)})`,
    async () =>
      (await get('dashboard.localhost', '/')).status === 200 && (await get('api.localhost', '/healthz')),
  );
});

afterAll(async () => {
  if (caddy && caddy.exitCode === null) {
    const exited = new Promise((resolve) => caddy.once('exit', resolve));
    caddy.kill('SIGTERM');
    await exited;
  }
  await dashboard?.close();
  await api?.close();
  await sandbox?.close();
  await redis?.close();
  await database?.close();
  await rm(temp, { recursive: true, force: true });
});

/** `caddy <command>` of the Caddyfile with the two addresses the live deployment gives it. */
function liveCaddy(command: 'validate' | 'adapt'): string {
  return execFileSync('/usr/bin/caddy', [command, '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    cwd: temp,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      ...caddyHomes(),
      DASHBOARD_URL: 'https://cadet.example.org',
      PUBLIC_API_URL: 'https://api.cadet.example.org',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('ops/caddy/Caddyfile', () => {
  it('validates as the live deployment gives it its two addresses', () => {
    const output = liveCaddy('validate');
    expect(output).toContain('Valid configuration');
    // Production proxies to the compose services, over Let's Encrypt (no internal CA).
    const adapted = liveCaddy('adapt');
    expect(adapted).toContain('"dial":"dashboard:5173"');
    expect(adapted).toContain('"dial":"api:4000"');
    expect(adapted).toContain('"host":["cadet.example.org"]');
    expect(adapted).toContain('"host":["api.cadet.example.org"]');
    expect(adapted).not.toContain('internal');
  });

  it('serves the dashboard over TLS with HSTS', async () => {
    const answer = await get('dashboard.localhost', '/dashboard');
    expect(answer.status).toBe(200);
    expect(answer.headers['strict-transport-security']).toBe(HSTS);
    expect(answer.body).toContain('<title>Space Cadet</title>');
    const config = await get('dashboard.localhost', '/config.js');
    expect(config.body).toContain(`"apiUrl":"https://api.localhost:${httpsPort}"`);
  });

  it('serves the API over TLS with one HSTS header, and the API sees the client address, not a forged one', async () => {
    const answer = await get('api.localhost', '/healthz', { 'x-forwarded-for': '203.0.113.9' });
    expect(answer.status).toBe(200);
    expect(answer.headers['strict-transport-security']).toBe(HSTS);
    const line = await waitFor('the request log line of the API', () =>
      apiLog
        .map((entry) => JSON.parse(entry) as { msg?: string; req?: { url?: string; remoteAddress?: string } })
        .find((entry) => entry.msg === 'incoming request' && entry.req?.url === '/healthz'),
    );
    // Caddy connects from 127.0.0.1; through TRUST_PROXY the API takes the client's address from
    // Caddy's X-Forwarded-For, where Caddy dropped the client's own made-up value.
    expect(line.req?.remoteAddress).toBe(CLIENT_ADDRESS);
  });

  it('redirects plain HTTP to HTTPS', async () => {
    const answer = await new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      httpGet(
        { host: '127.0.0.1', port: httpPort, path: '/dashboard', headers: { host: 'dashboard.localhost' } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, location: res.headers.location });
        },
      ).on('error', reject);
    });
    expect(answer.status).toBe(308);
    expect(answer.location).toMatch(/^https:\/\/dashboard\.localhost(:\d+)?\/dashboard$/);
  });

  it('keeps the same file for production: the test sets only its env placeholders', () => {
    const file = readFileSync(CADDYFILE, 'utf8');
    expect(file).toMatch(/^\{\$DASHBOARD_URL\} \{$/m);
    expect(file).toMatch(/^\{\$PUBLIC_API_URL\} \{$/m);
    expect(file).toContain(`Strict-Transport-Security "${HSTS}"`);
  });
});
