/**
 * What the benchmarks that load the bot like members do share: an open loop that sends on a
 * schedule, Discord's global limit switched on the sandbox, throughput over its windows, and
 * waiting for the worker to have joined a guild.
 */
import { SANDBOX_BOT_TOKEN } from '@spacecadet/discord-sandbox';
import { summarize, waitFor } from './lib.ts';
import type { Stack } from './stack.ts';

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

/**
 * Open loop: starts `task(i)` when it is due (`i / rate` seconds after the start) whatever the
 * earlier ones are doing, and hands it that due time, from which its latencies count.
 */
export async function openLoop<T>(
  rate: number,
  count: number,
  task: (index: number, due: number) => Promise<T>,
): Promise<{ results: T[]; lateP99: number }> {
  const start = performance.now() + 5;
  const pending: Promise<T>[] = [];
  const late: number[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    late.push(Math.max(0, performance.now() - due));
    pending.push(task(i, due));
  }
  return { results: await Promise.all(pending), lateP99: summarize(late).p99 };
}

/**
 * Role changes a second over the windows of the sandbox's global limit (a window opens with the
 * first call after the previous one closed, and lasts 1 s): the calls in every window but the
 * last, over the time from the first window's opening to the last's. A last window only partly
 * used would otherwise count as a whole second, or be left out of the time.
 */
export function perSecondOverWindows(times: readonly number[]): { perSecond: number; windows: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const openings: number[] = [];
  const counts: number[] = [];
  for (const at of sorted) {
    const opened = openings.at(-1);
    if (opened === undefined || at >= opened + 1000) {
      openings.push(at);
      counts.push(0);
    }
    counts[counts.length - 1] = (counts.at(-1) ?? 0) + 1;
  }
  if (openings.length < 2) return { perSecond: Number.NaN, windows: openings.length };
  const calls = counts.slice(0, -1).reduce((sum, count) => sum + count, 0);
  const spanMs = (openings.at(-1) ?? 0) - (openings[0] ?? 0);
  return { perSecond: (calls * 1000) / spanMs, windows: openings.length };
}

export async function setGlobalLimit(stack: Stack, perSecond: number | null): Promise<void> {
  const response = await fetch(`${stack.sandbox.url}/_sandbox/global-rate-limit`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ per_second: perSecond }),
  });
  if (!response.ok) throw new Error(`global-rate-limit -> ${response.status}: ${await response.text()}`);
}

export async function waitForBotPresence(stack: Stack, auth: string, guildId: string): Promise<void> {
  await waitFor(`the worker to record the bot in guild ${guildId}`, async () => {
    const presence = await stack.api<{ inGuild: boolean }>('GET', `/api/bot/in-guild/${guildId}`, auth);
    return presence.inGuild ? true : undefined;
  });
}

/**
 * The baseline task: the sandbox's REST round trip for the bot reading member `i`, in ms from
 * when it was due (as the open loop hands it).
 */
export function memberRoundTrip(stack: Stack, guildId: string, userIds: readonly string[]) {
  return async (i: number, due: number): Promise<number> => {
    const response = await fetch(`${stack.sandbox.apiBase}/v10/guilds/${guildId}/members/${userIds[i]}`, {
      headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}` },
    });
    await response.arrayBuffer();
    return performance.now() - due;
  };
}
