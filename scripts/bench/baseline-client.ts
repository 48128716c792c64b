/**
 * The benchmarks' baseline: a plain discord.js Client as the library comes (no makeCache, no
 * sweepers) with the worker's intents, REST pointed at the sandbox, in its own process (started
 * by `MeasuredChild.start`, so the GC hook answers memory requests). It says `ready` with the
 * guilds it holds, counts the MESSAGE_CREATEs it turns into `messageCreate` and answers a
 * `count` request with that number. BENCH_SHARD_IDS / BENCH_SHARD_COUNT make it run those shards.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunningWorker } from '@spacecadet/worker';
import { loadBaselineClientEnv } from '../env.ts';
import { repoRoot } from './lib.ts';

type DiscordClient = RunningWorker['client'];
interface DiscordModule {
  Client: new (options: {
    intents: number;
    rest: { api: string };
    shards?: number[];
    shardCount?: number;
  }) => DiscordClient;
  Events: { ClientReady: 'clientReady'; MessageCreate: 'messageCreate' };
}

// The worker's own copy of discord.js; the scripts package does not depend on it.
const resolved = createRequire(join(repoRoot, 'apps', 'worker', 'package.json')).resolve('discord.js');
const discord = (await import(pathToFileURL(resolved).href)) as DiscordModule;
const env = loadBaselineClientEnv();
const client = new discord.Client({
  intents: env.intents,
  rest: { api: env.apiBase },
  ...(env.shards ? { shards: env.shards.ids, shardCount: env.shards.count } : {}),
});
let messages = 0;
client.on(discord.Events.MessageCreate, () => {
  messages += 1;
});
process.on('message', (message: { bench?: string }) => {
  if (message?.bench === 'count') process.send?.({ bench: 'count', count: messages });
});
client.once(discord.Events.ClientReady, (ready) => {
  process.send?.({ bench: 'ready', guilds: ready.guilds.cache.size });
});
process.once('SIGTERM', () => {
  void client.destroy().finally(() => process.exit(0));
});
await client.login(env.botToken);
