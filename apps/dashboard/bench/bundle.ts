/**
 * Bundle budget of the dashboard: what the landing page downloads first (JS and CSS that
 * index.html references, gzip) and what each lazily loaded route adds (from the Vite manifest).
 * Usage: `tsx bench/bundle.ts [distDir]` (default: a fresh `vite build` into a temp dir).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const root = fileURLToPath(new URL('..', import.meta.url));
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function distDirFromArgs(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const given = process.argv[2];
  if (given) return { dir: given, cleanup: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'spacecadet-bundle-'));
  await build({ root, configLoader: 'runner', logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A chunk plus everything it imports statically (and their CSS). */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const files = new Set<string>();
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return files;
  seen.add(key);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? [])
    for (const file of closure(manifest, imported, seen)) files.add(file);
  return files;
}

const { dir, cleanup } = await distDirFromArgs();
try {
  const gzip = async (file: string) => gzipSync(await readFile(join(dir, file))).length;
  const html = await readFile(join(dir, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? '');
  const manifest = JSON.parse(await readFile(join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest;

  let js = 0;
  let css = 0;
  for (const file of initial) {
    if (file.endsWith('.js')) js += await gzip(file);
    else css += await gzip(file);
  }
  console.log('Landing page, initial download (gzip):');
  console.log(`  JavaScript ${kib(js)}   CSS ${kib(css)}   total ${kib(js + css)}`);

  const loaded = new Set(initial);
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (entryKey) for (const file of closure(manifest, entryKey)) loaded.add(file);
  console.log('\nLazy route chunks (gzip): own chunk, and everything new when opened from the landing page');
  const rows: Array<[string, number, number]> = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue;
    let fresh = 0;
    for (const file of closure(manifest, key)) if (!loaded.has(file)) fresh += await gzip(file);
    rows.push([chunk.src ?? key, await gzip(chunk.file), fresh]);
  }
  rows.sort((a, b) => b[2] - a[2]);
  console.log(`  ${'route module'.padEnd(44)} ${'own'.padStart(10)} ${'from /'.padStart(10)}`);
  for (const [name, own, fresh] of rows) {
    console.log(`  ${name.padEnd(44)} ${kib(own).padStart(10)} ${kib(fresh).padStart(10)}`);
  }
} finally {
  await cleanup();
}
