import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import { type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from './harness.ts';

let database: TestDatabase;
let redis: TestRedis;
let sandbox: Sandbox;

beforeAll(async () => {
  [database, redis, sandbox] = await Promise.all([
    createTestDatabase('api_server'),
    testRedis(),
    startSandbox(),
  ]);
});
afterAll(async () => {
  await sandbox?.close();
  await redis?.close();
  await database?.close();
});

describe('src/server.ts', () => {
  it('starts from env alone, answers, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, ...testEnv(database, redis, sandbox), API_PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
    });
    const url = await listening;
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code, output).toBe(0);
    expect(output).toContain('shutting down');
  });

  it('refuses to start with a bad variable, naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, ...testEnv(database, redis, sandbox), API_PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('API_PORT');
  });
});
