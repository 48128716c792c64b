import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { configScript, type RuntimeConfig } from '../src/runtime-config.ts';

export interface DashboardServerOptions {
  port: number;
  host: string;
  /** The `vite build` output. */
  distDir: string;
  config: RuntimeConfig;
}

export interface DashboardServer {
  url: string;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.webmanifest']);

interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
}

/**
 * What the built dashboard may load, and that no other site may frame it (clickjacking):
 * its own scripts, styles and fonts only (`/config.js` is a file, never inline), API calls to
 * `apiUrl`, avatars and server icons from `cdnBase`, and blob: images (the rank card preview: a
 * PNG the API drew, fetched with the bearer, shown as an object URL). React's `style` props are
 * set through the CSSOM, which `style-src` does not restrict.
 */
export function contentSecurityPolicy(config: RuntimeConfig): string {
  const origin = (url: string) => new URL(url).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${origin(config.cdnBase)}`,
    `connect-src 'self' ${origin(config.apiUrl)}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Serves the built SPA: hashed assets cached for a year, `/config.js` from the given config. */
export async function startDashboardServer(options: DashboardServerOptions): Promise<DashboardServer> {
  const root = resolve(options.distDir);
  const indexHtml = await readFile(join(root, 'index.html'));
  const cache = new Map<string, Asset>();
  const configJs = Buffer.from(configScript(options.config));
  const securityHeaders = {
    'Content-Security-Policy': contentSecurityPolicy(options.config),
    // For browsers that predate `frame-ancestors`.
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };

  function makeAsset(body: Buffer, ext: string): Asset {
    const gzip = COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body) : null;
    return { body, gzip, type: MIME[ext] ?? 'application/octet-stream' };
  }
  const index = makeAsset(indexHtml, '.html');

  async function loadAsset(pathname: string): Promise<Asset | null> {
    const cached = cache.get(pathname);
    if (cached) return cached;
    const file = normalize(join(root, pathname));
    if (!file.startsWith(root + sep)) return null;
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      const asset = makeAsset(await readFile(file), extname(file));
      cache.set(pathname, asset);
      return asset;
    } catch {
      return null;
    }
  }

  function send(req: IncomingMessage, res: ServerResponse, asset: Asset, cacheControl: string): void {
    const useGzip = asset.gzip !== null && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = useGzip && asset.gzip ? asset.gzip : asset.body;
    res.writeHead(200, {
      'Content-Type': asset.type,
      'Content-Length': body.length,
      'Cache-Control': cacheControl,
      ...securityHeaders,
      ...(asset.gzip ? { Vary: 'Accept-Encoding' } : {}),
      ...(useGzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' }).end();
        return;
      }
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (pathname === '/config.js') {
        send(req, res, { body: configJs, gzip: null, type: MIME['.js'] ?? '' }, 'no-store');
        return;
      }
      if (pathname !== '/' && pathname !== '/index.html') {
        const asset = await loadAsset(pathname);
        if (asset) {
          const hashed = pathname.startsWith('/assets/');
          send(req, res, asset, hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
          return;
        }
        // A missing file with an extension is a real 404, not a client route.
        if (extname(pathname) !== '') {
          res
            .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', ...securityHeaders })
            .end('Not found');
          return;
        }
      }
      send(req, res, index, 'no-cache');
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
