import { waitFor as pollUntilDeadline } from '@spacecadet/testing';
import {
  Client,
  type ClientOptions,
  Events,
  type GatewayDispatchPayload,
  GatewayIntentBits,
} from 'discord.js';
import { afterEach, beforeEach } from 'vitest';
import { SANDBOX_BOT_TOKEN, type Sandbox, startSandbox } from '../src/index.ts';

/**
 * A real discord.js client pointed at the sandbox, logged in and ready; `options` may set other
 * intents or partials.
 */
export async function readyClient(
  sandbox: Sandbox,
  shard?: [number, number],
  options: Partial<Pick<ClientOptions, 'intents' | 'partials'>> = {},
): Promise<Client> {
  const client = new Client({
    intents: options.intents ?? [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMembers,
      GatewayIntentBits.GuildMessages,
    ],
    ...(options.partials ? { partials: options.partials } : {}),
    rest: { api: sandbox.apiBase, timeout: 5000 },
    ...(shard ? { shards: shard[0], shardCount: shard[1] } : {}),
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(SANDBOX_BOT_TOKEN);
  await ready;
  return client;
}

/** Resolves with the first value `emit` delivers for which `accept` is true, or fails after `ms`. */
export function waitFor<T>(
  register: (listener: (value: T) => void) => () => void,
  accept: (value: T) => boolean = () => true,
  ms = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`Timed out after ${ms} ms`));
    }, ms);
    const off = register((value) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      off();
      resolve(value);
    });
  });
}

/** The next gateway packet of type `t` the client receives for which `accept` holds (its `d`). */
export function nextPacket(
  client: Client,
  t: string,
  accept: (d: Record<string, unknown>) => boolean = () => true,
): Promise<Record<string, unknown>> {
  return waitFor<Record<string, unknown>>((listener) => {
    const raw = (packet: GatewayDispatchPayload) => {
      if (packet.t === t) listener(packet.d as unknown as Record<string, unknown>);
    };
    client.on('raw', raw);
    return () => client.off('raw', raw);
  }, accept);
}

/** Polls `check` until it returns a value, with a deadline. */
export function eventually<T>(check: () => Promise<T | undefined> | T | undefined, ms = 5000): Promise<T> {
  return pollUntilDeadline('the condition', check, { timeoutMs: ms, intervalMs: 20 });
}

/**
 * A fresh sandbox for each test of the file, and the clients a test keeps, destroyed after it
 * before the sandbox closes. `sandbox()` is the current test's.
 */
export function sandboxPerTest(): { sandbox: () => Sandbox; keep: <C extends Client>(client: C) => C } {
  let current: Sandbox | undefined;
  const clients: Client[] = [];
  beforeEach(async () => {
    current = await startSandbox({ port: 0 });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.destroy();
    await current?.close();
    current = undefined;
  });
  return {
    sandbox() {
      if (!current) throw new Error('no sandbox outside a test');
      return current;
    },
    keep(client) {
      clients.push(client);
      return client;
    },
  };
}
