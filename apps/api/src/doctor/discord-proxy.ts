/** The doctor's check of the shared Discord rate limiters (DISCORD_PROXY_URL), when set. */
import type { ApiConfig } from '../env.ts';
import { type CheckLine, doctorClient, fail, pass, reasonOf } from './check.ts';

const FIX =
  'Start the Discord proxy (`pnpm --filter @spacecadet/discord-proxy start`, compose service discord-proxy) or correct DISCORD_PROXY_URL.';

/**
 * Asks every listed proxy's `/healthz` (at its root; DISCORD_PROXY_URL names its `/api` path).
 * With several, exactly one must say it is the active one: none is a takeover under way or
 * proxies without Redis, two are proxies that do not share one lease, and each would send at
 * the token's full rate.
 */
export async function checkDiscordProxy(config: ApiConfig): Promise<CheckLine> {
  const { proxyBases } = config.discord;
  if (proxyBases === null) {
    return pass('Discord proxy: DISCORD_PROXY_URL not set (each process keeps its own rate limits)');
  }
  const client = doctorClient(config, proxyBases);
  const answers: Array<{ healthz: string; active: boolean | null }> = [];
  for (const base of proxyBases) {
    const healthz = `${base.replace(/\/api$/, '')}/healthz`;
    try {
      const answer = await client.proxyHealth(base);
      if (answer.status !== 200) return fail(`Discord proxy at ${healthz} answered ${answer.status}`, FIX);
      answers.push({ healthz, active: answer.active });
    } catch (error) {
      return fail(`Discord proxy at ${healthz} not answering (${reasonOf(error)})`, FIX);
    }
  }
  const [only] = answers;
  if (answers.length === 1 && only) return pass(`Discord proxy answering at ${only.healthz}`);
  const active = answers.filter((answer) => answer.active === true);
  const listed = answers
    .map(({ healthz, active }) => `${healthz} (${active ? 'active' : 'standing by'})`)
    .join(', ');
  if (active.length === 1) return pass(`Discord proxies answering: ${listed}`);
  if (active.length === 0) {
    return fail(
      `Discord proxies answering, none of them active: ${listed}`,
      'Give every proxy the same REDIS_URL and REDIS_PREFIX (the lease names the active one); a takeover takes up to 5 s.',
    );
  }
  return fail(
    `${active.length} Discord proxies say they are active, each sending at the token's full rate: ${listed}`,
    'Give every proxy the same REDIS_URL and REDIS_PREFIX, so they share one lease.',
  );
}
