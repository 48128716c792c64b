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

export default defineConfig(() => {
  const env = loadDashboardEnv();
  return {
    plugins: [react(), runtimeConfigPlugin()],
    server: { port: env.port, host: env.host, strictPort: false },
    build: { manifest: true, target: 'es2022', sourcemap: false },
  };
});
