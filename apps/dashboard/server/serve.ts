// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { fileURLToPath } from 'node:url';
import { EnvError } from '@spacecadet/contract';
import { type DashboardEnv, loadDashboardEnv } from './env.ts';
import { startDashboardServer } from './server.ts';

let env: DashboardEnv;
try {
  env = loadDashboardEnv();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
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
