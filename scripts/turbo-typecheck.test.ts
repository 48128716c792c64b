/**
 * Packages export their src/*.ts (no build), so a workspace dependency's files are inputs of its
 * dependents' typecheck: a change in packages/contract must change the cache key of
 * @spacecadet/api#typecheck, never replay it. `turbo run --dry=json` computes the keys without
 * running anything. It runs on a scratch copy of the package graph (the package.json files, the
 * lockfile and turbo.json), so files others are editing in this checkout are never touched.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const turbo = join(root, 'node_modules', '.bin', 'turbo');
const probe = join('packages', 'contract', 'src', 'turbo-probe.ts');

interface PackageJson {
  name: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Workspace dirs from pnpm-workspace.yaml's `- dir/*` globs. */
function workspaceDirs(): string[] {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const parents = [...yaml.matchAll(/^\s+-\s+["']?([\w-]+)\/\*["']?\s*$/gm)].map((m) => m[1] ?? '');
  return parents.flatMap((parent) =>
    readdirSync(join(root, parent))
      .map((name) => join(parent, name))
      .filter((dir) => existsSync(join(root, dir, 'package.json'))),
  );
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const isWorkspace = (version: string) => version.startsWith('workspace:');

let scratch: string;
let packages: PackageJson[];

function writeScratch(relative: string, text: string): void {
  mkdirSync(dirname(join(scratch, relative)), { recursive: true });
  writeFileSync(join(scratch, relative), text);
}

/** turbo.json as checked in, or with `edit` applied to its parsed form (full-line comments dropped). */
function useTurboJson(edit?: (config: { tasks: Record<string, { dependsOn?: string[] }> }) => void): void {
  const text = readFileSync(join(root, 'turbo.json'), 'utf8');
  if (!edit) {
    writeScratch('turbo.json', text);
    return;
  }
  const config = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ''));
  edit(config);
  writeScratch('turbo.json', JSON.stringify(config));
}

/** typecheck cache key per package, and turbo's global hash inputs, for the scratch tree as it is. */
function dryRun(): { hashes: Map<string, string>; global: unknown } {
  const out = execFileSync(
    turbo,
    ['run', 'typecheck', '--dry=json', '--skip-infer', '--no-update-notifier'],
    {
      cwd: scratch,
      encoding: 'utf8',
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const summary = JSON.parse(out) as {
    globalCacheInputs: unknown;
    tasks: Array<{ package: string; task: string; hash: string }>;
  };
  const hashes = new Map(summary.tasks.filter((t) => t.task === 'typecheck').map((t) => [t.package, t.hash]));
  return { hashes, global: summary.globalCacheInputs };
}

/** Which packages' typecheck keys move when the contract's source changes. */
function changedByContractEdit(): { changed: string[]; globalMoved: boolean } {
  writeScratch(probe, 'export const probe = 1;\n');
  const before = dryRun();
  writeScratch(probe, 'export const probe = 2;\n');
  const after = dryRun();
  const typechecked = packages.filter((p) => p.scripts?.typecheck).map((p) => p.name);
  expect([...after.hashes.keys()].sort()).toEqual(typechecked.sort());
  const changed = [...after.hashes]
    .filter(([name, hash]) => before.hashes.get(name) !== hash)
    .map(([n]) => n);
  return {
    changed: changed.sort(),
    globalMoved: JSON.stringify(before.global) !== JSON.stringify(after.global),
  };
}

/** @spacecadet/contract and every package that depends on it, directly or not. */
function contractAndDependents(): string[] {
  const reached = new Set(['@spacecadet/contract']);
  for (let grew = true; grew; ) {
    grew = false;
    for (const pkg of packages) {
      const deps = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies });
      if (reached.has(pkg.name) || !deps.some(([dep, v]) => isWorkspace(v) && reached.has(dep))) continue;
      reached.add(pkg.name);
      grew = true;
    }
  }
  return packages
    .filter((p) => reached.has(p.name) && p.scripts?.typecheck)
    .map((p) => p.name)
    .sort();
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'spacecadet-turbo-'));
  for (const file of ['pnpm-workspace.yaml', 'pnpm-lock.yaml']) cpSync(join(root, file), join(scratch, file));
  // The root's devDependencies on the workspace packages put every package's files in turbo's
  // global hash, which moves every key on any change and would hide a missing dependency edge.
  const rootPackage = readJson<PackageJson>(join(root, 'package.json'));
  for (const [name, version] of Object.entries(rootPackage.devDependencies ?? {}))
    if (isWorkspace(version)) delete rootPackage.devDependencies?.[name];
  writeScratch('package.json', JSON.stringify(rootPackage, null, 2));
  packages = [];
  for (const dir of workspaceDirs()) {
    for (const file of ['package.json', 'turbo.json'])
      if (existsSync(join(root, dir, file))) cpSync(join(root, dir, file), join(scratch, dir, file));
    packages.push(readJson<PackageJson>(join(root, dir, 'package.json')));
  }
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('turbo typecheck cache keys', () => {
  it('follow a change in a workspace dependency, and only in its dependents', () => {
    useTurboJson();
    const { changed, globalMoved } = changedByContractEdit();
    expect(globalMoved).toBe(false);
    expect(changed).toContain('@spacecadet/api');
    expect(changed).toEqual(contractAndDependents());
  });

  it('would be replayed without the dependency edge (so the check above can fail)', () => {
    useTurboJson((config) => {
      for (const task of Object.values(config.tasks)) delete task.dependsOn;
    });
    const { changed, globalMoved } = changedByContractEdit();
    expect(globalMoved).toBe(false);
    expect(changed).toEqual(['@spacecadet/contract']);
  });
});
