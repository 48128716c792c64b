/**
 * The product reaches Discord's REST through one typed layer per app: the worker through
 * @discordjs/core's `API` (apps/worker/src/discord-rest.ts), the API through its own client
 * (apps/api/src/services/discord.ts, typed by discord-answers.ts beside it). Anywhere else a raw
 * call or a hand cast of Discord's answer (`as APIRole[]`) would give the same object a second,
 * unchecked type. The sandbox stays a test tool: no product source imports it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The two files allowed to talk to Discord's REST directly. */
const DISCORD_LAYER = ['apps/api/src/services/discord.ts', 'apps/worker/src/discord-rest.ts'];

/**
 * Where product code lives: every app's and package's src. The sandbox is not the product, and
 * the Discord proxy only forwards the two layers' requests (it makes none of its own).
 */
const NOT_PRODUCT = new Set(['discord-sandbox', 'discord-proxy']);
function productDirs(): string[] {
  return ['apps', 'packages'].flatMap((parent) =>
    readdirSync(join(root, parent))
      .filter((name) => !(parent === 'packages' && NOT_PRODUCT.has(name)))
      .flatMap((name) => ['src', 'server'].map((dir) => join(parent, name, dir)))
      .filter((dir) => existsSync(join(root, dir))),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const files = productDirs().flatMap(sourceFiles);
const text = (file: string) => readFileSync(join(root, file), 'utf8');

/** Files whose text matches `pattern`, with the matching lines. */
function matching(pattern: RegExp, among: readonly string[] = files): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of among) {
    const lines = text(file)
      .split('\n')
      .filter((line) => pattern.test(line));
    if (lines.length > 0) found[file] = lines.map((line) => line.trim());
  }
  return found;
}

describe('one typed Discord layer', () => {
  it('finds the product sources', () => {
    expect(files).toEqual(expect.arrayContaining(DISCORD_LAYER));
    expect(files.length).toBeGreaterThan(50);
  });

  it('makes raw REST calls, or builds a REST client, only in the two layer files', () => {
    const raw = matching(/\brest\s*\.\s*(get|post|put|patch|delete|request)\s*\(|\bnew\s+(REST|API)\s*\(/);
    // The dashboard's browser code fetches our own API; Discord is reached from the server side only.
    const serverFiles = files.filter((file) => !file.startsWith(join('apps', 'dashboard', 'src')));
    const fetches = matching(/(^|[^.\w])fetch\s*\(/, serverFiles);
    const callers = [...new Set([...Object.keys(raw), ...Object.keys(fetches)])].sort();
    expect(callers.filter((file) => !DISCORD_LAYER.includes(file))).toEqual([]);
    expect(callers.length).toBeLessThanOrEqual(2);
  });

  it('casts no Discord answer by hand', () => {
    expect(matching(/\bas\s+\[?\s*(API|REST(Get|Post|Put|Patch|Delete))\w*/)).toEqual({});
  });

  it('never imports the sandbox from product code', () => {
    expect(matching(/['"]@spacecadet\/discord-sandbox['"]/)).toEqual({});
  });
});
