/**
 * What the landing page makes a visitor download first (the JavaScript and CSS that
 * index.html references, gzip as the dashboard server sends it), and what each lazily loaded
 * route adds on navigation. Baseline, built in the same run with the same Vite: the smallest
 * React app (react + react-dom rendering one element).
 *
 * Goal (issue 40): the landing page's first-load JavaScript at most 90 KiB gzip.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { buildDashboard, kib, printTable, ratio, repoRoot, reportHeadline } from './lib.ts';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const GOAL_LANDING_JS_BYTES = 90 * 1024;

const gzipSize = async (file: string): Promise<number> => gzipSync(await readFile(file)).length;

/** Asset paths (`assets/…`) a page loads up front: module scripts, modulepreloads and stylesheets. */
function initialAssets(indexHtml: string): { js: string[]; css: string[] } {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const match of indexHtml.matchAll(/<(script|link)\b[^>]*>/g)) {
    const tag = match[0];
    const url = /\b(?:src|href)="\/?(assets\/[^"]+)"/.exec(tag)?.[1];
    if (!url) continue;
    if (url.endsWith('.css') && /rel="stylesheet"/.test(tag)) css.add(url);
    else if (url.endsWith('.js') && (tag.startsWith('<script') || /rel="modulepreload"/.test(tag)))
      js.add(url);
  }
  return { js: [...js], css: [...css] };
}

/** Every file a manifest entry pulls in statically (itself, its imports, their CSS), as asset paths. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const files = new Set<string>();
  if (seen.has(key)) return files;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? [])
    for (const file of closure(manifest, imported, seen)) files.add(file);
  return files;
}

/** gzip size of the smallest React app, built by the same Vite with production settings. */
async function reactFloorGzip(): Promise<number> {
  const outDir = await mkdtemp(join(tmpdir(), 'spacecadet-bench-react-floor-'));
  try {
    await build({
      configFile: false,
      root: join(import.meta.dirname, 'react-floor'),
      logLevel: 'silent',
      mode: 'production',
      build: { outDir, emptyOutDir: true, target: 'es2022', manifest: true, sourcemap: false },
    });
    const html = await readFile(join(outDir, 'index.html'), 'utf8');
    let total = 0;
    for (const file of initialAssets(html).js) total += await gzipSize(join(outDir, file));
    return total;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dashboard = await buildDashboard();
  try {
    const dist = dashboard.distDir;
    const manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
    const initial = initialAssets(await readFile(join(dist, 'index.html'), 'utf8'));
    const sizes = new Map<string, number>();
    const sizeOf = async (file: string) => {
      const known = sizes.get(file);
      if (known !== undefined) return known;
      const size = await gzipSize(join(dist, file));
      sizes.set(file, size);
      return size;
    };

    let initialJs = 0;
    let initialCss = 0;
    const rows: string[][] = [['landing (/) initial', 'gzip']];
    for (const file of initial.js) {
      const size = await sizeOf(file);
      initialJs += size;
      rows.push([`  ${file}`, kib(size)]);
    }
    for (const file of initial.css) {
      const size = await sizeOf(file);
      initialCss += size;
      rows.push([`  ${file}`, kib(size)]);
    }
    rows.push(['  total JavaScript', kib(initialJs)], ['  total CSS', kib(initialCss)]);
    printTable(rows);

    // Lazy chunks: each dynamic entry, its own size and what navigating to it adds beyond the landing.
    const loaded = new Set([...initial.js, ...initial.css]);
    const lazyRows: string[][] = [['lazy chunk (source)', 'own gzip', 'added vs landing']];
    for (const [key, chunk] of Object.entries(manifest)) {
      if (!chunk.isDynamicEntry) continue;
      let added = 0;
      for (const file of closure(manifest, key)) if (!loaded.has(file)) added += await sizeOf(file);
      const label = chunk.src ? relative('src', chunk.src) : key;
      lazyRows.push([`  ${label}`, kib(await sizeOf(chunk.file)), kib(added)]);
    }
    lazyRows.sort((a, b) =>
      a[0] === 'lazy chunk (source)'
        ? -1
        : b[0] === 'lazy chunk (source)'
          ? 1
          : (a[0] ?? '').localeCompare(b[0] ?? ''),
    );
    printTable(lazyRows);

    const floor = await reactFloorGzip();
    printTable([
      ['baseline', 'gzip', 'landing JS ratio'],
      ['  smallest React app (react + react-dom)', kib(floor), ratio(initialJs, floor)],
    ]);
    const met = initialJs <= GOAL_LANDING_JS_BYTES;
    reportHeadline(
      'dashboard-size',
      `landing JS ${kib(initialJs)} (goal ${kib(GOAL_LANDING_JS_BYTES)}) + CSS ${kib(initialCss)} gzip; ${ratio(initialJs, floor)} the bare React app (${kib(floor)}); ${lazyRows.length - 1} lazy chunks${met ? '' : ' — GOAL MISSED'}`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    await dashboard.cleanup();
  }
}

console.log(`dashboard-size (${relative(repoRoot, join(repoRoot, 'apps', 'dashboard'))})`);
await main();
