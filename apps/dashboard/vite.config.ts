import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { loadDashboardEnv } from './server/env.ts';
import { configScript } from './src/runtime-config.ts';

/** `vite dev` / `vite preview` serve /config.js from env, like `server/serve.ts` does. */
function runtimeConfigPlugin(): Plugin {
  const handler = (url: string | undefined, send: (body: string) => void, next: () => void) => {
    if (url?.split('?')[0] !== '/config.js') return next();
    send(configScript(loadDashboardEnv().config));
  };
  return {
    name: 'spacecadet-runtime-config',
    configureServer(server) {
      server.middlewares.use((req, res, next) =>
        handler(
          req.url,
          (body) => {
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            res.setHeader('Cache-Control', 'no-store');
            res.end(body);
          },
          next,
        ),
      );
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) =>
        handler(
          req.url,
          (body) => {
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            res.end(body);
          },
          next,
        ),
      );
    },
  };
}

/**
 * react-router's package exports name only its development build (dev warnings and their
 * messages, some 0.5 KiB gzip more in the landing page's first load), even for production
 * bundles (remix-run/react-router#12532); its framework plugin aliases the production build it
 * ships beside it, as `vite build` does here (`vite dev` keeps the warnings). Same version, same
 * code without the warnings.
 */
function reactRouterProductionBuild(): string {
  const packageJson = createRequire(import.meta.url).resolve('react-router/package.json');
  return join(dirname(packageJson), 'dist', 'production', 'index.mjs');
}

/** What a chunking pass tells about a module: the modules it imports statically. */
interface ChunkingModules {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/**
 * Names one chunk for every module the landing page loads up front (all that index.html imports
 * statically): React, the router, the session store and the landing itself. Left to itself the
 * bundler splits off each part a lazy route shares (react, the router, the session) into a file
 * of its own, and the landing downloads four files that gzip each on their own; loaded together
 * anyway, one file is some 1.3 KiB smaller. Lazy routes import what they share from it.
 */
function landingChunk(): (id: string, chunking: ChunkingModules) => string | null {
  const entry = fileURLToPath(new URL('./index.html', import.meta.url));
  let initial: Set<string> | null = null;
  return (id, chunking) => {
    if (!initial) {
      initial = new Set();
      const pending = [entry];
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        if (initial.has(next)) continue;
        initial.add(next);
        pending.push(...(chunking.getModuleInfo(next)?.importedIds ?? []));
      }
    }
    return initial.has(id) ? 'index' : null;
  };
}

export default defineConfig(({ command }) => {
  // `vite build` runs with NODE_ENV=production and needs no port, host or runtime config (those
  // are read at run time by server/serve.ts), so it must not trip the production refusals.
  const env = command === 'serve' ? loadDashboardEnv() : undefined;
  return {
    plugins: [react(), runtimeConfigPlugin()],
    ...(command === 'build'
      ? { resolve: { alias: [{ find: /^react-router$/, replacement: reactRouterProductionBuild() }] } }
      : {}),
    ...(env ? { server: { port: env.port, host: env.host, strictPort: false } } : {}),
    build: {
      manifest: true,
      target: 'es2022',
      sourcemap: false,
      rolldownOptions: {
        output: {
          codeSplitting: { groups: [{ name: landingChunk(), debugName: 'landing' }] },
        },
      },
    },
  };
});
