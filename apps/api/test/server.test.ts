import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import { type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { waitFor } from '@spacecadet/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from './harness.ts';

let database: TestDatabase;
let redis: TestRedis;
let sandbox: Sandbox;
let child: ChildProcess | undefined;

beforeAll(async () => {
  [database, redis, sandbox] = await Promise.all([
    createTestDatabase('api_server'),
    testRedis(),
    startSandbox(),
  ]);
});
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await sandbox?.close();
  await redis?.close();
  await database?.close();
});

async function waitUntil(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  await waitFor(what, check, { timeoutMs, intervalMs: 20 });
}

/** The real server process on a free port, its log kept for the test to read. */
async function startServer() {
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: new URL('..', import.meta.url),
    env: { ...process.env, ...testEnv(database, redis, sandbox), API_PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  let output = '';
  const exited = once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const listening = new Promise<string>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    server.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then(([code]) => reject(new Error(`exited early with ${code}: ${output}`)));
  });
  const url = await listening;
  const count = (text: string) => output.split(text).length - 1;
  return {
    url,
    exited,
    output: () => output,
    /** Sends SIGTERM, then waits until the server has logged `reaction` to it. */
    async sigterm(reaction: string) {
      const seen = count(reaction);
      server.kill('SIGTERM');
      await waitUntil(`the server to log "${reaction}"`, () => count(reaction) > seen);
    },
    /**
     * A request whose body is only half sent, which keeps the server's close waiting. Resolves
     * once the server has the request; `finish` sends the rest and resolves with the answer.
     */
    async inFlightRequest(): Promise<{ finish(): Promise<string>; socket: Socket }> {
      const body = '{"code":"abc","code_verifier":"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"}';
      const port = new URL(url).port;
      const socket = connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        answer += chunk;
      });
      const closed = once(socket, 'close');
      const seen = count('incoming request');
      socket.write(
        `POST /api/auth/discord/exchange HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      await waitUntil('the server to receive the request', () => count('incoming request') > seen);
      return {
        socket,
        async finish() {
          socket.write(body.slice(10));
          await closed;
          return answer;
        },
      };
    },
  };
}

describe('src/server.ts', () => {
  it('starts from env alone, answers, and exits 0 on SIGTERM', async () => {
    const server = await startServer();
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    child?.kill('SIGTERM');
    const [code] = await server.exited;
    expect(code, server.output()).toBe(0);
    expect(server.output()).toContain('shutting down');
    expect(server.output()).toContain('shutdown complete');
  });

  it('a second SIGTERM (pnpm forwarding one to a signalled process group) does not cut the close short', async () => {
    const server = await startServer();
    const request = await server.inFlightRequest();
    await server.sigterm('shutting down');
    child?.kill('SIGTERM');
    const exitedEarly = () => child?.exitCode !== null || child?.signalCode !== null;
    await waitUntil(
      'the second signal to be handled',
      () => server.output().includes('already shutting down') || exitedEarly(),
    );
    // The close is still waiting for the request, which is then answered in full.
    expect({ code: child?.exitCode, signal: child?.signalCode }).toEqual({ code: null, signal: null });
    const answer = await request.finish();
    expect(answer).toMatch(/^HTTP\/1.1 [45]\d\d /);
    expect(answer).toContain('"error"');
    // Else the client would keep the connection, and with it the close, open.
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    const [code, signal] = await server.exited;
    expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('shutdown complete');
  });

  it('a third SIGTERM exits at once', async () => {
    const server = await startServer();
    const request = await server.inFlightRequest();
    await server.sigterm('shutting down');
    await server.sigterm('already shutting down');
    child?.kill('SIGTERM');
    const [code] = await server.exited;
    expect(code).toBe(1);
    expect(server.output()).toContain('exiting at once');
    expect(server.output()).not.toContain('shutdown complete');
    request.socket.destroy();
  });

  it('refuses to start with a bad variable, naming it', async () => {
    const bad = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, ...testEnv(database, redis, sandbox), API_PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    bad.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(bad, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('API_PORT');
  });
});
