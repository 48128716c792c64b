/** The doctor's check of the shared Discord rate limiter (DISCORD_PROXY_URL), when one is set. */
import type { ApiConfig } from '../env.ts';
import { type CheckLine, doctorClient, fail, pass, reasonOf } from './check.ts';

export async function checkDiscordProxy(config: ApiConfig): Promise<CheckLine> {
  const { proxyBase } = config.discord;
  if (proxyBase === null) {
    return pass('Discord proxy: DISCORD_PROXY_URL not set (each process keeps its own rate limits)');
  }
  // The proxy answers /healthz at its root; DISCORD_PROXY_URL is its `/api` path.
  const healthz = `${proxyBase.replace(/\/api$/, '')}/healthz`;
  const fix =
    'Start the Discord proxy (`pnpm --filter @spacecadet/discord-proxy start`, compose service discord-proxy) or correct DISCORD_PROXY_URL.';
  try {
    const answer = await doctorClient(config, proxyBase).proxyHealth();
    if (answer === null || answer.status === 200) return pass(`Discord proxy answering at ${healthz}`);
    return fail(`Discord proxy at ${healthz} answered ${answer.status}`, fix);
  } catch (error) {
    return fail(`Discord proxy at ${healthz} not answering (${reasonOf(error)})`, fix);
  }
}
