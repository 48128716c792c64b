import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { productionTestEnv } from '@spacecadet/testing';
import { describe, expect, it } from 'vitest';
import {
  isLocalHostname,
  PUBLISHED_SESSION_SECRETS,
  productionRefusals,
  SANDBOX_DISCORD_CREDENTIALS,
  withRefusals,
} from '../src/production-env.ts';

const root = join(import.meta.dirname, '../../..');

/** A production env with nothing to refuse. */
const GOOD = productionTestEnv();
const ALL = { botToken: true, clientSecret: true, clientId: 'required' } as const;
const variables = (refusals: string[]) => refusals.map((r) => r.slice(0, r.indexOf(':')));

describe('productionRefusals', () => {
  it('passes a good production env', () => {
    expect(productionRefusals(GOOD, ALL)).toEqual([]);
  });

  it('refuses a missing, short or published SESSION_SECRET, one sentence each', () => {
    expect(productionRefusals({ ...GOOD, SESSION_SECRET: undefined })).toEqual([
      'SESSION_SECRET: required in production; set a random one, e.g. `openssl rand -hex 32`.',
    ]);
    expect(productionRefusals({ ...GOOD, SESSION_SECRET: 'x'.repeat(31) })[0]).toMatch(
      /^SESSION_SECRET: is shorter than 32 characters; set a random one/,
    );
    for (const secret of PUBLISHED_SESSION_SECRETS) {
      expect(productionRefusals({ ...GOOD, SESSION_SECRET: secret })[0]).toMatch(
        /^SESSION_SECRET: is a secret published in this repository/,
      );
    }
  });

  it('refuses public URLs that are not https or are local', () => {
    for (const url of [
      'http://api.example.org',
      'https://localhost',
      'https://bot.localhost:8443',
      'https://127.3.4.5',
      'https://[::1]:4000',
      'https://0.0.0.0',
      'not a url',
    ]) {
      expect(variables(productionRefusals({ ...GOOD, PUBLIC_API_URL: url, DASHBOARD_URL: url }))).toEqual([
        'PUBLIC_API_URL',
        'DASHBOARD_URL',
      ]);
    }
    expect(isLocalHostname('128.0.0.1')).toBe(false);
    expect(isLocalHostname('localhost.example.org')).toBe(false);
  });

  it('refuses the sandbox credentials and missing ones, only those the process uses', () => {
    const sandbox = {
      ...GOOD,
      DISCORD_CLIENT_ID: SANDBOX_DISCORD_CREDENTIALS.clientId,
      DISCORD_CLIENT_SECRET: SANDBOX_DISCORD_CREDENTIALS.clientSecret,
      DISCORD_BOT_TOKEN: SANDBOX_DISCORD_CREDENTIALS.botToken,
    };
    expect(variables(productionRefusals(sandbox, ALL))).toEqual([
      'DISCORD_BOT_TOKEN',
      'DISCORD_CLIENT_SECRET',
      'DISCORD_CLIENT_ID',
    ]);
    // The dashboard server: no bot token nor secret, so neither is required of it.
    expect(
      variables(productionRefusals({ SESSION_SECRET: GOOD.SESSION_SECRET }, { clientId: 'required' })),
    ).toEqual(['PUBLIC_API_URL', 'DASHBOARD_URL', 'DISCORD_CLIENT_ID']);
    // The worker: the client id is optional (READY gives it), but never the sandbox's.
    expect(productionRefusals({ ...GOOD, DISCORD_CLIENT_ID: undefined }, { clientId: 'optional' })).toEqual(
      [],
    );
  });

  it('names a variable once when a reader also checks it', () => {
    expect(withRefusals(['SESSION_SECRET: a'], ['SESSION_SECRET: b', 'API_PORT: c'])).toEqual([
      'SESSION_SECRET: a',
      'API_PORT: c',
    ]);
  });
});

describe('PUBLISHED_SESSION_SECRETS', () => {
  /**
   * Every SESSION_SECRET value of 32+ characters written in a tracked file (compose, README,
   * .env.example, scripts, tests) is published: it must be in the list, or production would take it.
   */
  it('holds every SESSION_SECRET value the repository publishes', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f !== '' && !/\.(png|jpe?g|ico|woff2?|lock|svg)$/.test(f));
    const value =
      /SESSION_SECRET['"]?\s*(?:[:=]|:-)\s*(?:\$\{SESSION_SECRET:-)?['"`]?([A-Za-z0-9_.+/=-]{32,})/g;
    const found = new Map<string, string>();
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        continue;
      }
      if (!text.includes('SESSION_SECRET')) continue;
      for (const match of text.matchAll(value)) if (match[1]) found.set(match[1], file);
    }
    // The grep itself works: the compose demo's secret is found where it is published.
    expect(found.get('compose-demo-secret-change-me-before-going-public')).toBe('docker-compose.yml');
    const unlisted = [...found].filter(([secret]) => !PUBLISHED_SESSION_SECRETS.includes(secret));
    expect(unlisted).toEqual([]);
  });
});
