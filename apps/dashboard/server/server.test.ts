// @vitest-environment node
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardServer, startDashboardServer } from './server.ts';

let dist: string;
let server: DashboardServer;
const bigScript = `console.log(${JSON.stringify('x'.repeat(5000))});`;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'dashboard-serve-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Space Cadet</title>');
  await writeFile(join(dist, 'assets', 'index-abc123.js'), bigScript);
  await writeFile(join(dist, 'favicon.svg'), '<svg/>');
  server = await startDashboardServer({
    port: 0,
    host: '127.0.0.1',
    distDir: dist,
    config: {
      apiUrl: 'https://api.example.com',
      discordClientId: '123456789012345678',
      discordOauthBase: 'https://discord.com',
      cdnBase: 'https://cdn.discordapp.com',
      ownerUserId: '200000000000000001',
    },
  });
});
afterAll(async () => {
  await server.close();
  await rm(dist, { recursive: true, force: true });
});

describe('startDashboardServer', () => {
  it('writes /config.js from the given config, never cached', async () => {
    const response = await fetch(`${server.url}/config.js`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toContain('javascript');
    const text = await response.text();
    expect(text).toContain('window.__SPACECADET_CONFIG__ = ');
    expect(text).toContain('"apiUrl":"https://api.example.com"');
    expect(text).toContain('"ownerUserId":"200000000000000001"');
  });

  it('falls back to index.html for client routes, revalidated every time', async () => {
    for (const path of ['/', '/dashboard/color-roles?guild=1', '/auth/callback']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<title>Space Cadet</title>');
    }
  });

  it('caches hashed assets for a year and gzips them when asked', async () => {
    const response = await fetch(`${server.url}/assets/index-abc123.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // fetch decodes gzip itself; the smaller content-length shows what went over the wire.
    expect(Number(response.headers.get('content-length'))).toBeLessThan(bigScript.length);
    expect(await response.text()).toBe(bigScript);
  });

  it('answers 404 for a missing file and refuses to leave the dist folder', async () => {
    expect((await fetch(`${server.url}/assets/missing.js`)).status).toBe(404);
    const traversal = await fetch(`${server.url}/..%2f..%2fetc%2fpasswd`);
    expect(await traversal.text()).not.toContain('root:');
  });

  it('sends a Content-Security-Policy that allows only its own code, the API and the CDN, and no framing', async () => {
    for (const path of ['/', '/dashboard/color-roles', '/assets/index-abc123.js', '/assets/missing.js']) {
      const response = await fetch(`${server.url}${path}`);
      const csp = response.headers.get('content-security-policy') ?? '';
      const directives = new Map(
        csp.split(';').map((part) => {
          const [name = '', ...values] = part.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('connect-src')).toEqual(["'self'", 'https://api.example.com']);
      expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://cdn.discordapp.com']);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});
