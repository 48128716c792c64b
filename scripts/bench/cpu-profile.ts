/**
 * `BENCH_CPU_PROF=<dir>`: a bench profiles the phases it names (the in-process worker's CPU, as
 * `node --cpu-prof` would, but only while measuring, not the setup) and writes one
 * `<dir>/<label>.cpuprofile` per label, all its phases of that label merged by the profiler
 * running across them. `tsx scripts/bench/cpu-profile.ts <file.cpuprofile>` prints self and
 * total time by function.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

export interface CpuProfiler {
  /** Runs `work` under the profiler, its samples added to `label`'s profile. */
  around<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** Writes each label's profile; returns the files. */
  write(): string[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A profiler when `BENCH_CPU_PROF` names a directory; otherwise one that only runs the work. */
export function cpuProfiler(dir: string | undefined): CpuProfiler {
  if (!dir) return { around: (_label, work) => work(), write: () => [] };
  const session = new Session();
  session.connect();
  const profiles = new Map<string, Profile[]>();
  return {
    async around(label, work) {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      try {
        return await work();
      } finally {
        const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
        profiles.set(label, [...(profiles.get(label) ?? []), profile]);
      }
    },
    write() {
      mkdirSync(dir, { recursive: true });
      return [...profiles].map(([label, list]) => {
        const file = join(dir, `${label}.cpuprofile`);
        writeFileSync(file, JSON.stringify(list.length === 1 ? list[0] : mergeProfiles(list)));
        return file;
      });
    },
  };
}

/** One profile of several: node ids renumbered, samples and deltas appended. */
function mergeProfiles(list: readonly Profile[]): Profile {
  const merged: Profile = { nodes: [], samples: [], timeDeltas: [], startTime: 0, endTime: 0 };
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

/** Self and total time by function (name, file, line), sorted by self time; `idle` left out of %. */
export function summarizeProfile(profile: Profile, top = 40): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  /** The profiler's own stop (serialising the profile) is not the bench's work. */
  const underProfiler = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      if (byId.get(at)?.callFrame.url === 'node:inspector') return true;
    return false;
  };
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const keyOf = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^file:\/\//, '').replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '');
    return `${functionName || '(anonymous)'} ${file.split('/').slice(-3).join('/')}:${lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)' || underProfiler(id)) continue;
    busy += us;
    self.set(keyOf(node), (self.get(keyOf(node)) ?? 0) + us);
    // Each function counted once per sample however deep its recursion.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const up = byId.get(at);
      if (!up) break;
      const key = keyOf(up);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + us);
    }
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const lines = [
    `busy ${(busy / 1000).toFixed(0)} ms (idle, (program) and the profiler's own stop left out)`,
    'self   total  function',
  ];
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`${pct(us)} ${pct(total.get(key) ?? 0)}  ${key}`);
  lines.push('', 'by total time:');
  for (const [key, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`${pct(self.get(key) ?? 0)} ${pct(us)}  ${key}`);
  return lines;
}

if (import.meta.filename === process.argv[1]) {
  for (const file of process.argv.slice(2)) {
    console.log(`== ${file}`);
    for (const line of summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as Profile)) console.log(line);
  }
}
