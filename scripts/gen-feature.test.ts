import { execFile } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..');
const FEATURE = 'welcome-notes';
// Deadlines against hangs on a loaded machine, not measures of speed.
const MINUTES = 60_000;

let copy = '';

/** The repository's files (committed and new, not ignored) into `target`, made a git work tree. */
async function copySources(target: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of stdout.split('\0').filter(Boolean)) {
    const from = join(repo, file);
    if (!(await lstat(from).catch(() => null))) continue; // deleted, not yet committed
    await mkdir(dirname(join(target, file)), { recursive: true });
    await cp(from, join(target, file), { verbatimSymlinks: true });
  }
  // A checkout, as the packages' own tests expect one (the contract greps `git ls-files`).
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
  ]) {
    await run('git', args, { cwd: target, maxBuffer: 64 * 1024 * 1024 });
  }
}

/** What pnpm keeps in a `node_modules` besides the packages; other dot entries are caches. */
const PNPM_STATE = ['.bin', '.modules.yaml', '.pnpm-workspace-state-v1.json'];

/**
 * The installed dependencies, without installing: every package's `node_modules` holds only
 * relative links (to the root's `.pnpm` store and to the workspace's packages), so copying the
 * links makes them point into the copy, and the root's `.pnpm` (the packages themselves) is linked.
 */
async function linkDependencies(target: string): Promise<void> {
  const { stdout } = await run('pnpm', ['ls', '-r', '--depth', '-1', '--parseable'], { cwd: repo });
  for (const dir of stdout.split('\n').filter(Boolean)) {
    const modules = join(dir, 'node_modules');
    const into = join(target, dir.slice(repo.length), 'node_modules');
    await mkdir(into, { recursive: true });
    for (const entry of await readdir(modules)) {
      if (entry === '.pnpm') await symlink(join(modules, entry), join(into, entry));
      else if (!entry.startsWith('.') || PNPM_STATE.includes(entry))
        await cp(join(modules, entry), join(into, entry), { recursive: true, verbatimSymlinks: true });
    }
  }
}

/** This process' environment without what vitest sets for itself, so the copy's vitest starts afresh. */
const CHILD_ENV = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(__)?VITEST/.test(name) && name !== 'NODE_ENV'),
);

/** Runs a command in the copy; a failure fails the test with its output. */
async function inCopy(command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd: copy, env: CHILD_ENV, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** The workspace folders (`apps/api`, `packages/db`, …) holding any of the generated files. */
function packagesOf(files: string[]): string[] {
  const folders = files.map((file) => /^((?:apps|packages)\/[^/]+)\//.exec(file)?.[1]);
  return [...new Set(folders.filter((folder) => folder !== undefined))].sort();
}

/** What `pnpm gen feature` says it wrote or edited: the indented paths after `Wrote <name>:`. */
const writtenFiles = (stdout: string) =>
  stdout
    .slice(stdout.indexOf(`Wrote ${FEATURE}:`))
    .split('\n')
    .filter((line) => line.startsWith('  '))
    .map((line) => line.trim());

let touched: string[] = [];

describe('pnpm gen feature', () => {
  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'gen-feature-'));
    await copySources(copy);
    await linkDependencies(copy);
    touched = packagesOf(writtenFiles(await inCopy('pnpm', ['gen', 'feature', FEATURE])));
  }, 5 * MINUTES);

  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  it('writes a migration for the new table', async () => {
    const migrations = await readdir(join(copy, 'packages/db/drizzle'));
    expect(migrations.filter((file) => file.endsWith('_welcome_notes.sql'))).toHaveLength(1);
  });

  it('typechecks and lints', { timeout: 20 * MINUTES }, async () => {
    await inCopy('pnpm', ['typecheck']);
    await inCopy('pnpm', ['lint']);
  });

  it('touches every layer', () => {
    expect(touched).toEqual([
      'apps/api',
      'apps/dashboard',
      'apps/worker',
      'packages/contract',
      'packages/core',
      'packages/db',
    ]);
  });

  // The full suite of each package, not a picked list: a house rule that lands after the
  // generator (a test over every route, feature or History action) fails here until the
  // templates follow it.
  it('passes the full test suite of every package it touches', { timeout: 80 * MINUTES }, async () => {
    const failed: string[] = [];
    for (const folder of touched) {
      await inCopy('pnpm', ['--filter', `./${folder}`, 'test']).catch((error: Error) => {
        failed.push(`${folder}: ${error.message.slice(-4000)}`);
      });
    }
    expect(failed).toEqual([]);
  });
});
