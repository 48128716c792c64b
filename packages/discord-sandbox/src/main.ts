import { startSandbox } from './index.ts';

const port = Number(process.env.SANDBOX_PORT ?? 4100);
const host = process.env.SANDBOX_HOST ?? '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SANDBOX_PORT must be a port number, got "${process.env.SANDBOX_PORT}"`);
  process.exit(1);
}

const publicUrl = process.env.SANDBOX_PUBLIC_URL;
const sandbox = await startSandbox({ port, host, ...(publicUrl ? { publicUrl } : {}) });
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
