// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { EnvError } from '@spacecadet/contract';
import { loadSandboxEnv } from './env.ts';
import { startSandbox } from './index.ts';

let env: ReturnType<typeof loadSandboxEnv>;
try {
  env = loadSandboxEnv();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const sandbox = await startSandbox(env);
console.log(`Discord sandbox listening on ${sandbox.url}`);
console.log(`  DISCORD_API_BASE=${sandbox.apiBase}`);
console.log(`  DISCORD_OAUTH_BASE=${sandbox.oauthBase}`);
console.log(`  chat view: ${sandbox.url}/`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received, stopping the Discord sandbox`);
  await sandbox.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
