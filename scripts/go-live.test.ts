/**
 * README "Go live", run as written: every shell command of the section, in order, here against
 * the sandbox. There is no Docker engine on the build machines, so `docker compose … up -d`
 * becomes Debian's `docker-compose … config` with the section's `.env` (compose's own refusals
 * and the rendered services are what it checks), and `docker compose … run --rm api doctor`
 * becomes `pnpm doctor` with that `.env`, pointed at what `up` would have started: a migrated
 * PostgreSQL, a Redis with persistence and noeviction (its own, as compose's), the real worker
 * (which registers the slash commands), and the sandbox standing in for a good Discord
 * application. A command this test does not know fails it: the README cannot show a step
 * nobody ran.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@spacecadet/db/testing';
import { type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { ownApplication } from '@spacecadet/discord-sandbox/testing';
import { type CollectedRun, freePort, runCollecting, testStackEnv, waitFor } from '@spacecadet/testing';
import { loadWorkerConfig, type RunningWorker, startWorker } from '@spacecadet/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const liveCompose = readFileSync(join(root, 'docker-compose.live.yml'), 'utf8');

/** The section, from its heading to the next one of the same level. */
function goLiveSection(): string {
  const match = /^## Go live\n([\s\S]*?)(?=^## )/m.exec(readme);
  if (!match?.[1]) throw new Error('README has no "## Go live" section');
  return match[1];
}

/** The fenced blocks of one language, in order, their indentation (list items) removed. */
function blocks(section: string, lang: string): string[] {
  return [...section.matchAll(new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\`$`, 'gm'))].map(
    (match) => {
      const indent = match[1]?.length ?? 0;
      return (match[2] ?? '')
        .split('\n')
        .map((line) => line.slice(indent))
        .join('\n');
    },
  );
}

/** Each command of the sh blocks: comments and blank lines dropped, `\` continuations joined. */
function commands(section: string): string[] {
  return blocks(section, 'sh')
    .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const section = goLiveSection();
/** The admin's own application (the production doctor refuses the sandbox's published one). */
const OWN = ownApplication();
const dotenvTemplate = blocks(section, 'dotenv');
let temp: string;
let envFile: string;
/** What the section's `.env` holds once its placeholders are filled in. */
const env = new Map<string, string>();

/** Runs the section's secret command (`openssl rand -hex 32`): a new secret each time. */
function makeSecret(command: string): string {
  const secret = execFileSync('sh', ['-c', command], { encoding: 'utf8' }).trim();
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  return secret;
}

/**
 * What a reader puts in place of each `<…>` of the `.env`: their own application, and for a
 * secret, the output of the command the section showed for it.
 */
function fillPlaceholder(placeholder: string, secretCommand: string): string {
  switch (placeholder) {
    case 'bot token':
      return OWN.credentials.botToken;
    case 'client id':
      return OWN.credentials.clientId;
    case 'client secret':
      return OWN.credentials.clientSecret;
    case secretCommand:
      return makeSecret(secretCommand);
    default:
      throw new Error(`README's .env has a placeholder this test does not know: <${placeholder}>`);
  }
}

function composeConfig(fileArgs: string[]) {
  return spawnSync('docker-compose', ['--env-file', envFile, ...fileArgs, 'config'], {
    cwd: root,
    encoding: 'utf8',
    // Only what the host has: every variable of the deployment must come from the .env.
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
}

/** `-f a -f b` of a `docker compose` command line, checked to be the live pair. */
function composeFiles(args: string): string[] {
  const files = [...args.matchAll(/-f (\S+)/g)].map((match) => match[1] ?? '');
  expect(files).toEqual(['docker-compose.yml', 'docker-compose.live.yml']);
  return files.flatMap((file) => ['-f', file]);
}

type Step = (command: string, args: string) => void | Promise<void>;

/** Every command the section may show, and what running it here means. */
const STEPS: Array<{ pattern: RegExp; run: Step }> = [
  {
    pattern: /^openssl rand -hex 32$/,
    run: (command) => {
      makeSecret(command);
      // The reader can write the .env once the section has shown how to make its secrets.
      writeDotenv(command);
    },
  },
  {
    pattern: /^docker compose ((?:-f \S+ )+)up -d$/,
    run: (_command, args) => {
      const result = composeConfig(composeFiles(args));
      expect(result.stderr).not.toMatch(/error|missing/i);
      expect(result.status).toBe(0);
      const services = [...result.stdout.matchAll(/^ {2}([a-z0-9-]+):\n((?: {4}.*\n|\n)*)/gm)]
        .filter((match) => !/^ {4}profiles:/m.test(match[2] ?? ''))
        .map((match) => match[1]);
      expect(services).toContain('caddy');
      expect(services).not.toContain('sandbox');
      expect(result.stdout).toContain(`SESSION_SECRET: ${env.get('SESSION_SECRET')}`);
      expect(result.stdout).toContain(`PUBLIC_API_URL: ${env.get('PUBLIC_API_URL')}`);
    },
  },
  {
    pattern: /^docker compose ((?:-f \S+ )+)run --rm api doctor$/,
    run: async (_command, args) => {
      // The same files as `up`, with an api service to run it in.
      const result = composeConfig(composeFiles(args));
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^ {2}api:\n/m);
      const doctor = await runDoctor();
      expect(doctor.output).toContain('✓');
      expect(doctor.output, doctor.output).not.toContain('✗');
      expect(doctor.code, doctor.output).toBe(0);
    },
  },
];

function writeDotenv(secretCommand: string): void {
  if (dotenvTemplate.length !== 1) throw new Error('the section should show exactly one .env');
  const lines = (dotenvTemplate[0] ?? '').replace(/<([^>]+)>/g, (_all, placeholder: string) =>
    fillPlaceholder(placeholder, secretCommand),
  );
  env.clear();
  for (const line of lines.split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match?.[1] !== undefined) env.set(match[1], match[2] ?? '');
  }
  writeFileSync(envFile, lines);
}

let database: TestDatabase;
let sandbox: Sandbox;
let redisServer: ChildProcess;
let redisUrl: string;
let worker: RunningWorker;
const REDIS_PREFIX = 'go-live';

/** `pnpm run doctor` (pnpm keeps `pnpm doctor` for its own command) with the `.env`, where `up` would have put PostgreSQL, Redis and Discord. */
function runDoctor(): Promise<CollectedRun> {
  return runCollecting('pnpm', ['run', '--silent', 'doctor'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...Object.fromEntries(env),
      // What docker-compose.live.yml sets for the api service, the sandbox in Discord's place.
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX,
      DISCORD_API_BASE: sandbox.apiBase,
      DISCORD_OAUTH_BASE: sandbox.oauthBase,
    },
  });
}

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'spacecadet-go-live-'));
  envFile = join(temp, '.env');
  [database, sandbox] = await Promise.all([
    createTestDatabase('go_live'),
    startSandbox({ port: 0, fixture: OWN.fixture }),
  ]);
  // As compose runs it: jobs kept across restarts, never evicted.
  const redisPort = await freePort();
  redisUrl = `redis://127.0.0.1:${redisPort}`;
  redisServer = spawn(
    'redis-server',
    [
      '--port',
      String(redisPort),
      '--bind',
      '127.0.0.1',
      '--dir',
      temp,
      '--appendonly',
      'yes',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  await waitFor('the go-live Redis answering', () => {
    const ping = spawnSync('redis-cli', ['-p', String(redisPort), 'ping'], { encoding: 'utf8' });
    return ping.stdout.trim() === 'PONG';
  });
  // The worker `up` starts registers the slash commands.
  worker = await startWorker(
    loadWorkerConfig({
      ...testStackEnv(database, { url: redisUrl, prefix: REDIS_PREFIX }, sandbox),
      DISCORD_CLIENT_ID: OWN.credentials.clientId,
      DISCORD_BOT_TOKEN: OWN.credentials.botToken,
    }),
  );
  await waitFor('the slash commands registered', async () => {
    const response = await fetch(`${sandbox.apiBase}/applications/${OWN.credentials.clientId}/commands`, {
      headers: { authorization: `Bot ${OWN.credentials.botToken}` },
    });
    return response.ok && ((await response.json()) as unknown[]).length > 0;
  });
}, 120_000);

afterAll(async () => {
  await worker?.close();
  if (redisServer && redisServer.exitCode === null) {
    const exited = new Promise((resolve) => redisServer.once('exit', resolve));
    redisServer.kill('SIGTERM');
    await exited;
  }
  await sandbox?.close();
  await database?.close();
  await rm(temp, { recursive: true, force: true });
});

/** Step 1 done right: the application lists the two redirects of the `.env`'s addresses. */
async function registerRedirects(): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/application`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [
        `${env.get('DASHBOARD_URL')}/auth/callback`,
        `${env.get('PUBLIC_API_URL')}/install/callback`,
      ],
    }),
  });
  expect(response.ok, await response.text()).toBe(true);
}

describe('README "Go live"', () => {
  it('walks application, host, DNS, .env, compose, doctor and invite in that order', () => {
    const headings = [...section.matchAll(/^\d+\. \*\*([^*]+)\*\*/gm)].map((match) => match[1]);
    expect(headings).toEqual([
      'The Discord application.',
      'A host.',
      'DNS.',
      '`.env`',
      'Start it:',
      'Check it:',
      'Invite the bot.',
    ]);
    expect(section).toContain(`\${DASHBOARD_URL}/auth/callback`);
    expect(section).toContain(`\${PUBLIC_API_URL}/install/callback`);
    expect(section).toContain('Server Members Intent');
  });

  it("names in its .env every variable the live compose file requires, and nothing it doesn't use", () => {
    const required = new Set([...liveCompose.matchAll(/\$\{([A-Z_]+):\?/g)].map((match) => match[1]));
    const shown = new Set(
      (dotenvTemplate[0] ?? '').split('\n').flatMap((line) => /^([A-Z_]+)=/.exec(line)?.[1] ?? []),
    );
    expect([...shown].sort()).toEqual([...required].sort());
  });

  it('runs every command it shows, in order, against the sandbox', async () => {
    const shown = commands(section);
    expect(shown.length).toBeGreaterThanOrEqual(3);
    const ran: string[] = [];
    for (const command of shown) {
      const step = STEPS.find(({ pattern }) => pattern.test(command));
      if (step === undefined)
        throw new Error(`README "Go live" shows a command this test cannot run: ${command}`);
      if (command.endsWith(' doctor')) await registerRedirects();
      await step.run(command, step.pattern.exec(command)?.[1] ?? '');
      ran.push(command.split(' ').slice(0, 2).join(' '));
    }
    expect(ran).toEqual(['openssl rand', 'docker compose', 'docker compose']);
    // The one openssl command, run once for each secret of the .env.
    expect(env.get('SESSION_SECRET')).toMatch(/^[0-9a-f]{64}$/);
    expect(env.get('POSTGRES_PASSWORD')).toMatch(/^[0-9a-f]{64}$/);
    expect(env.get('POSTGRES_PASSWORD')).not.toBe(env.get('SESSION_SECRET'));
  }, 120_000);
});
