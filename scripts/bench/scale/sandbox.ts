/**
 * The scale bench's sandbox, in a child process (`sandbox.ts --sandbox <guilds> <members>`): the
 * generated world served over HTTP and the gateway, and chat bursts emitted on request.
 */
import { join } from 'node:path';
import type { RestRequestRecord } from '@spacecadet/discord-sandbox';
import { pathAndHome } from '../../env.ts';
import { emitInChunks, epochMs, type GeneratedGuild, generateWorld, startBenchChild } from '../lib.ts';
import { CHANNELS, MEMBERS, ROLES, SANDBOX_FLAG } from './config.ts';

export interface EmitRequest {
  bench: 'emit';
  id: number;
  /** Messages offset..offset+count-1: message k in guild k % guilds, from its member (k / guilds) % members. */
  offset: number;
  count: number;
}

export interface EmitDone {
  bench: 'emitted';
  id: number;
  first: number;
  last: number;
}

export interface SandboxReady {
  url: string;
  apiBase: string;
  guilds: GeneratedGuild[];
  buildMs: number;
}

export async function sandboxChild(guildCount: number, members: number): Promise<void> {
  const started = Date.now();
  const sandboxModule = await import('@spacecadet/discord-sandbox');
  // The sandbox's own module (the same instance startSandbox uses) for postMessage.
  const { buildMessage, postMessage } = await import('@spacecadet/discord-sandbox/testing');
  const { fixture, guilds } = generateWorld(
    { guilds: guildCount, channels: CHANNELS, roles: ROLES, members },
    sandboxModule,
  );
  const sandbox = await sandboxModule.startSandbox({ port: 0, fixture });
  const state = sandbox.world;
  const records = guilds.map((guild) => {
    const record = state.guilds.get(guild.guildId);
    if (!record) throw new Error(`the sandbox has no guild ${guild.guildId}`);
    return record;
  });
  const emitOne = (k: number): number => {
    const g = k % guilds.length;
    const guild = guilds[g] as GeneratedGuild;
    const authors = guild.memberIds;
    postMessage(
      state,
      records[g] as (typeof records)[number],
      buildMessage(state, {
        channel_id: guild.channelId,
        author_id: authors[Math.floor(k / guilds.length) % authors.length] as string,
        content: `status report ${k}`,
      }),
    );
    return epochMs();
  };
  process.on('message', (message: EmitRequest) => {
    if (message?.bench !== 'emit') return;
    void emitInChunks(message.count, (i) => emitOne(message.offset + i)).then(
      (times) => {
        // The sandbox keeps every message; nothing here reads them back.
        state.messages.clear();
        process.send?.({
          bench: 'emitted',
          id: message.id,
          first: times[0] ?? Number.NaN,
          last: times.at(-1) ?? Number.NaN,
        } satisfies EmitDone);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  const stop = () => void sandbox.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop).once('disconnect', stop);
  process.send?.({
    url: sandbox.url,
    apiBase: sandbox.apiBase,
    guilds,
    buildMs: Date.now() - started,
  } satisfies SandboxReady);
}

export interface SandboxHandle extends SandboxReady {
  emit(offset: number, count: number): Promise<EmitDone>;
  /** REST calls answered so far (the request log's sequence number). */
  requestSeq(): Promise<number>;
  /** The calls after `seq` the log still holds, and whether it lost some. */
  requestsSince(seq: number): Promise<{ requests: RestRequestRecord[]; complete: boolean }>;
  stop(): Promise<void>;
}

export async function startSandboxChild(guilds: number): Promise<SandboxHandle> {
  const { child, ready, died, stop } = await startBenchChild<SandboxReady>(
    join(import.meta.dirname, 'sandbox.ts'),
    SANDBOX_FLAG,
    // 50,000 guilds of 20 members, 30 roles and 20 channels outgrow Node's default heap limit.
    { ...pathAndHome(), NODE_OPTIONS: '--max-old-space-size=12288' },
    [String(guilds), String(MEMBERS)],
  );
  const waiting = new Map<number, (done: EmitDone) => void>();
  child.on('message', (message: EmitDone) => {
    if (message?.bench === 'emitted') waiting.get(message.id)?.(message);
  });
  let nextId = 0;
  const log = async () =>
    (await (await fetch(`${ready.url}/_sandbox/requests`)).json()) as RestRequestRecord[];
  return {
    ...ready,
    emit(offset, count) {
      const id = nextId++;
      const done = new Promise<EmitDone>((resolve) => waiting.set(id, resolve));
      child.send({ bench: 'emit', id, offset, count } satisfies EmitRequest);
      return Promise.race([done, died]).finally(() => waiting.delete(id));
    },
    async requestSeq() {
      return (await log()).at(-1)?.seq ?? 0;
    },
    async requestsSince(seq) {
      const requests = await log();
      return {
        requests: requests.filter((request) => request.seq > seq),
        complete: (requests[0]?.seq ?? seq + 1) <= seq + 1,
      };
    },
    stop,
  };
}

const flag = process.argv.indexOf(SANDBOX_FLAG);
if (flag >= 0) await sandboxChild(Number(process.argv[flag + 1]), Number(process.argv[flag + 2]));
