/**
 * CPU profiles of a bench's child, and what they say.
 *
 * - `startCpuProfile()`: V8's sampling profiler over this process from now on; the returned
 *   `stop()` hands the profile back, `writeCpuProfile(path, profile)` writes it. Unlike
 *   `node --cpu-prof` it covers only the measured window, not start-up, and only this process, not
 *   the children it starts.
 * - `cpuProfiler(dir)` (in a bench's own process): `around(label, work)` profiles each measured
 *   phase, not the set-up; `write()` puts one `<dir>/<label>.cpuprofile` per label, its phases merged.
 * - `tsx scripts/bench/cpu-profile.ts <file.cpuprofile> [rows]`: self and total time, as % of
 *   the samples, by module (an npm package, a workspace package, node's own code, GC, idle) and
 *   by function.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { dirname, join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[] | undefined;
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface CpuProfiler {
  /** Runs `work` under the profiler, its samples added to `label`'s profile. */
  around<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** Writes each label's profile; returns the files. */
  write(): Promise<string[]>;
}

/** V8's sampling profiler over this process from now on; `stop()` ends it and hands the profile back. */
export async function startCpuProfile(): Promise<{ stop(): Promise<CpuProfile> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
      session.disconnect();
      return profile;
    },
  };
}

/** Writes a profile as a `.cpuprofile` (Chrome DevTools opens it too), making its directory. */
export async function writeCpuProfile(path: string, profile: CpuProfile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(profile));
}

/** A profiler when `BENCH_CPU_PROF` names a directory; otherwise one that only runs the work. */
export function cpuProfiler(dir: string | undefined): CpuProfiler {
  if (!dir) return { around: (_label, work) => work(), write: async () => [] };
  const profiles = new Map<string, CpuProfile[]>();
  return {
    async around(label, work) {
      const profile = await startCpuProfile();
      try {
        return await work();
      } finally {
        profiles.set(label, [...(profiles.get(label) ?? []), await profile.stop()]);
      }
    },
    async write() {
      return Promise.all(
        [...profiles].map(async ([label, list]) => {
          const file = join(dir, `${label}.cpuprofile`);
          await writeCpuProfile(file, list.length === 1 ? (list[0] as CpuProfile) : mergeProfiles(list));
          return file;
        }),
      );
    },
  };
}

/** One profile of several: node ids renumbered, samples and deltas appended. */
function mergeProfiles(list: readonly CpuProfile[]): CpuProfile {
  const merged: CpuProfile = { nodes: [], samples: [], timeDeltas: [], startTime: 0, endTime: 0 };
  let offset = 0;
  for (const profile of list) {
    const top = Math.max(...profile.nodes.map((node) => node.id));
    for (const node of profile.nodes)
      merged.nodes.push({ ...node, id: node.id + offset, children: node.children?.map((c) => c + offset) });
    merged.samples.push(...profile.samples.map((id) => id + offset));
    merged.timeDeltas.push(...profile.timeDeltas.map((delta, i) => (i === 0 ? 0 : delta)));
    merged.endTime += profile.endTime - profile.startTime;
    offset += top;
  }
  return merged;
}

/** The package a script belongs to: `fastify`, `@fastify/rate-limit`, `apps/api`, `node:internal`. */
function moduleOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const inPackage = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage?.[1]) return inPackage[1];
  const inRepo = /\/((?:apps|packages|scripts)\/[^/]+)\//.exec(url);
  return inRepo?.[1] ?? url;
}

function functionOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split('/').slice(-2).join('/');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

interface Row {
  self: number;
  total: number;
}

/** Self and total sample time by key; a key counts once per stack in total (recursion). */
export function summarize(profile: CpuProfile, keyOf: (node: ProfileNode) => string): Map<string, Row> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const rows = new Map<string, Row>();
  const row = (key: string) => {
    let found = rows.get(key);
    if (found === undefined) {
      found = { self: 0, total: 0 };
      rows.set(key, found);
    }
    return found;
  };
  profile.samples.forEach((id, index) => {
    const time = profile.timeDeltas[index] ?? 0;
    const leaf = byId.get(id);
    if (leaf === undefined) return;
    row(keyOf(leaf)).self += time;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node === undefined) break;
      const key = keyOf(node);
      if (seen.has(key)) continue;
      seen.add(key);
      row(key).total += time;
    }
  });
  return rows;
}

function print(title: string, rows: Map<string, Row>, all: number, limit: number): void {
  const pct = (value: number) => `${((100 * value) / all).toFixed(1).padStart(5)} %`;
  console.log(`\n${title}: self, total`);
  const sorted = [...rows]
    .filter(([key]) => !key.startsWith('(idle)'))
    .sort((a, b) => b[1].self - a[1].self)
    .slice(0, limit);
  for (const [key, row] of sorted) console.log(`  ${pct(row.self)}  ${pct(row.total)}  ${key}`);
}

async function main(path: string, limit: number): Promise<void> {
  const { readFile } = await import('node:fs/promises');
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const sampled = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  const idle = summarize(profile, (node) => node.callFrame.functionName).get('(idle)')?.self ?? 0;
  // Percentages of the busy time: how long the process was idle depends on the load, not on it.
  const busy = sampled - idle;
  console.log(
    `${path}: ${(sampled / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (% below are of busy)`,
  );
  const byModule = summarize(profile, (node) => moduleOf(node.callFrame.url, node.callFrame.functionName));
  print('by module', byModule, busy, limit);
  print('by function', summarize(profile, functionOf), busy, limit);
}

if (import.meta.filename === process.argv[1]) {
  const [path, rows] = process.argv.slice(2);
  if (path === undefined) throw new Error('usage: cpu-profile.ts <file.cpuprofile> [rows]');
  await main(path, Number(rows ?? 30));
}
