import { GatewayIntentBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SANDBOX_BOT_TOKEN, type Sandbox, type SandboxOptions, startSandbox } from '../src/index.ts';
import { control } from './helpers.ts';

let sandbox: Sandbox | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await sandbox?.close();
});

async function start(options: SandboxOptions = {}): Promise<Sandbox> {
  sandbox = await startSandbox({ port: 0, ...options });
  return sandbox;
}

type Answer =
  | { ready: { session_id: string; shard: [number, number] } }
  | { invalidSession: boolean }
  | { closed: number };

interface Connection {
  ws: WebSocket;
  /** The first answer to the IDENTIFY or RESUME sent after HELLO. */
  answer: Promise<Answer>;
  closed: Promise<number>;
}

/** A raw gateway connection that sends `payload` on HELLO. */
function connect(sb: Sandbox, payload: { op: number; d: unknown }): Connection {
  const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/gateway?v=10&encoding=json`);
  sockets.push(ws);
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const answer = new Promise<Answer>((resolve) => {
    ws.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { op: number; t?: string; d: unknown };
      if (message.op === 10) ws.send(JSON.stringify(payload));
      else if (message.t === 'READY' || message.t === 'RESUMED')
        resolve({ ready: message.d as { session_id: string; shard: [number, number] } });
      else if (message.op === 9) resolve({ invalidSession: message.d as boolean });
    });
    void closed.then((code) => resolve({ closed: code }));
  });
  return { ws, answer, closed };
}

const identify = (sb: Sandbox, shard: [number, number], token = SANDBOX_BOT_TOKEN) =>
  connect(sb, { op: 2, d: { token, intents: GatewayIntentBits.Guilds, properties: {}, shard } });

async function sessionStartLimit(sb: Sandbox) {
  const res = await fetch(`${sb.apiBase}/v10/gateway/bot`, {
    headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { session_start_limit: Record<string, number> }).session_start_limit;
}

interface LimitsDump {
  max_concurrency: number;
  remaining: number;
  identify_interval_ms: number;
  identifies: Array<{
    at_ms: number;
    shard: [number, number];
    bucket: number;
    refused: boolean;
    outcome: string;
  }>;
}

describe('session start limits', () => {
  it('reports the limit in GET /gateway/bot and counts IDENTIFYs, not RESUMEs', async () => {
    const sb = await start({ identifyIntervalMs: 0 });
    expect(await sessionStartLimit(sb)).toEqual({
      total: 1000,
      remaining: 1000,
      reset_after: 0,
      max_concurrency: 1,
    });
    const first = identify(sb, [0, 1]);
    const ready = await first.answer;
    if (!('ready' in ready)) throw new Error(`no READY: ${JSON.stringify(ready)}`);
    first.ws.terminate();
    await first.closed;
    const resumed = connect(sb, {
      op: 6,
      d: { token: SANDBOX_BOT_TOKEN, session_id: ready.ready.session_id, seq: 0 },
    });
    expect(await resumed.answer).toHaveProperty('ready');
    const limit = await sessionStartLimit(sb);
    expect(limit).toMatchObject({ total: 1000, remaining: 999, max_concurrency: 1 });
    // The day's window opened with the IDENTIFY.
    expect(limit.reset_after).toBeGreaterThan(23 * 3600 * 1000);
  });

  it('answers a second IDENTIFY of one bucket within 5 seconds with Invalid Session (d: false)', async () => {
    const sb = await start();
    const first = identify(sb, [0, 2]);
    expect(await first.answer).toHaveProperty('ready');
    // Shard 1 of 2 is in the same bucket as shard 0 with max_concurrency 1.
    const second = identify(sb, [1, 2]);
    expect(await second.answer).toEqual({ invalidSession: false });
    // The connection stays open: the client may IDENTIFY again once the bucket is free.
    expect(second.ws.readyState).toBe(WebSocket.OPEN);
    const limits = (await control(sb, 'GET', '/gateway-limits')).body as LimitsDump;
    expect(limits).toMatchObject({ max_concurrency: 1, identify_interval_ms: 5000, remaining: 999 });
    expect(limits.identifies.map((i) => [i.shard[0], i.bucket, i.refused])).toEqual([
      [0, 0, false],
      [1, 0, true],
    ]);
  });

  it('lets max_concurrency buckets IDENTIFY together, set by option, fixture or the control route', async () => {
    const sb = await start({ maxConcurrency: 2 });
    expect(await sessionStartLimit(sb)).toMatchObject({ max_concurrency: 2 });
    const answers = await Promise.all([identify(sb, [0, 4]).answer, identify(sb, [1, 4]).answer]);
    for (const answer of answers) expect(answer).toHaveProperty('ready');
    // Shard 2 shares bucket 0 with shard 0.
    expect(await identify(sb, [2, 4]).answer).toEqual({ invalidSession: false });

    const changed = await control(sb, 'PUT', '/gateway-limits', {
      max_concurrency: 16,
      identify_interval_ms: 50,
    });
    expect(changed.body).toMatchObject({ max_concurrency: 16, identify_interval_ms: 50 });
    expect(await identify(sb, [3, 4]).answer).toHaveProperty('ready');

    const bad = await control(sb, 'PUT', '/gateway-limits', { max_concurrency: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/max_concurrency/),
    });

    // A reset restores what the server started with, and forgets the record.
    await control(sb, 'POST', '/reset');
    expect(await control(sb, 'GET', '/gateway-limits')).toMatchObject({
      body: { max_concurrency: 2, identify_interval_ms: 5000, remaining: 1000, identifies: [] },
    });
  });

  it('ends every session and resets the token on an IDENTIFY with no session starts left', async () => {
    const sb = await start({ identifyIntervalMs: 0 });
    const running = identify(sb, [0, 1]);
    expect(await running.answer).toHaveProperty('ready');
    await control(sb, 'PUT', '/gateway-limits', { remaining: 0 });
    expect(await sessionStartLimit(sb)).toMatchObject({ remaining: 0 });

    const over = identify(sb, [0, 1]);
    expect(await over.answer).toEqual({ closed: 4004 });
    expect(await running.closed).toBe(4004);
    // The old token no longer works, for the gateway or REST, until the owner uses the new one.
    expect(await identify(sb, [0, 1]).answer).toEqual({ closed: 4004 });
    const rest = await fetch(`${sb.apiBase}/v10/gateway/bot`, {
      headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}` },
    });
    expect(rest.status).toBe(401);
    const limits = (await control(sb, 'GET', '/gateway-limits')).body as LimitsDump;
    expect(limits.identifies.map((i) => i.outcome)).toEqual(['accepted', 'exhausted']);

    await control(sb, 'POST', '/reset');
    expect(await identify(sb, [0, 1]).answer).toHaveProperty('ready');
  });
});
