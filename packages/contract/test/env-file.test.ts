import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvFile, ROOT_ENV_FILE } from '../src/env-file.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

describe('the .env file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spacecadet-env-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is the repo root's .env", () => {
    expect(ROOT_ENV_FILE).toBe(join(repoRoot, '.env'));
  });

  it('is not read under Vitest unless ENV_FILE names one, so a developer .env never reaches a test', () => {
    expect(loadEnvFile({ VITEST: 'true' })).toBeNull();
    expect(loadEnvFile({ VITEST: 'true', ENV_FILE: '' })).toBeNull();
  });

  it('is read by a process at start, with variables already set winning', async () => {
    const file = join(dir, '.env');
    // 127.0.0.2 shows the file was read; its port loses to the one set in the environment.
    await writeFile(file, 'SANDBOX_HOST=127.0.0.2\nSANDBOX_PORT=1\n');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'packages/discord-sandbox/src/main.ts')],
      {
        cwd: repoRoot,
        // No VITEST here: the process runs as it would outside the tests.
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ENV_FILE: file, SANDBOX_PORT: '0' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${output}`)));
      });
      const url = new URL(line);
      expect(url.hostname).toBe('127.0.0.2');
      expect(url.port).not.toBe('1');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
