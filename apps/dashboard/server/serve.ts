// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { fileURLToPath } from 'node:url';
import { loadDashboardEnv } from './env.ts';
import { startDashboardServer } from './server.ts';

const env = loadDashboardEnv();
const distDir = fileURLToPath(new URL('../dist', import.meta.url));
const server = await startDashboardServer({ port: env.port, host: env.host, distDir, config: env.config });
console.log(`Space Cadet dashboard on ${server.url} (API ${env.config.apiUrl})`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void server.close().then(() => process.exit(0));
  });
}
