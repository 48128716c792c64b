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

/** The repository's files (committed and new, not ignored) into `target`. */
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

const vitest = (pkg: string, files: string[]) =>
  inCopy('pnpm', ['--filter', pkg, 'exec', 'vitest', 'run', ...files]);

describe('pnpm gen feature', () => {
  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'gen-feature-'));
    await copySources(copy);
    await linkDependencies(copy);
    await inCopy('pnpm', ['gen', 'feature', FEATURE]);
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

  it('passes its tests and the tests that check every route and feature', {
    timeout: 20 * MINUTES,
  }, async () => {
    await vitest('@spacecadet/db', [
      `test/${FEATURE}.test.ts`,
      'test/migrations.test.ts',
      'test/schema-drift.test.ts',
    ]);
    await vitest('@spacecadet/core', ['test/product-features.test.ts']);
    await vitest('@spacecadet/api', [
      `test/${FEATURE}.test.ts`,
      'test/route-statuses.test.ts',
      'test/openapi-statuses.test.ts',
      'test/authorization.test.ts',
      'test/property.test.ts',
      'test/schema-fit.test.ts',
    ]);
    await vitest('@spacecadet/worker', [`test/${FEATURE}.test.ts`, 'test/product-features.test.ts']);
    await vitest('@spacecadet/dashboard', [
      `src/dashboard/${FEATURE}`,
      'src/dashboard/DashboardApp.test.tsx',
    ]);
  });
});
