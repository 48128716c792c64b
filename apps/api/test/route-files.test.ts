import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The API's route files hold registrations only: a feature's reads, writes and the messages they
 * refuse with live in `services/` (or `history/` for the undo), where the routes and the history
 * restorers both call them. So every module under `src/routes/` (subfolders too) exports nothing
 * but `register*Routes` functions, `define.ts` and `index.ts` being the folder's infrastructure,
 * and nothing under `src/history/` or `src/services/` imports from `src/routes/`.
 */
const src = join(import.meta.dirname, '..', 'src');
const routesDir = join(src, 'routes');
const INFRASTRUCTURE = new Set(['define.ts', 'index.ts']);

/** Every TypeScript module under `dir`, its subfolders included, relative to `src`. */
function modules(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return modules(path);
      return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [relative(src, path)] : [];
    })
    .sort();
}

const routeFiles = modules(routesDir).filter((file) => !INFRASTRUCTURE.has(relative('routes', file)));
const leaningFiles = [...modules(join(src, 'history')), ...modules(join(src, 'services'))];

/** The relative module specifiers a file imports or re-exports (static and dynamic). */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    if (match[1]) found.push(match[1]);
  }
  return found;
}

describe('route files', () => {
  it('finds the route files and the history and services modules', () => {
    expect(routeFiles.length).toBeGreaterThan(10);
    expect(leaningFiles).toEqual(expect.arrayContaining(['history/index.ts', 'services/jobs.ts']));
  });

  it.each(routeFiles)('%s exports only register*Routes functions', async (file) => {
    const module: Record<string, unknown> = await import(pathToFileURL(join(src, file)).href);
    const others = Object.entries(module)
      .filter(([name, value]) => !(/^register\w*Routes$/.test(name) && typeof value === 'function'))
      .map(([name]) => name);
    expect(others).toEqual([]);
  });

  it.each(leaningFiles)('%s imports nothing from routes/', (file) => {
    const path = join(src, file);
    const fromRoutes = specifiers(readFileSync(path, 'utf8')).filter((specifier) => {
      const target = relative(routesDir, resolve(dirname(path), specifier));
      return !target.startsWith('..');
    });
    expect(fromRoutes).toEqual([]);
  });
});
