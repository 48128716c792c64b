import { type SpawnOptions, spawn } from 'node:child_process';

/** A finished process: its exit code and everything it printed, stdout and stderr interleaved. */
export interface CollectedRun {
  code: number | null;
  output: string;
}

/** Runs `command` to its end, collecting what it prints (stdin closed). */
export function runCollecting(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, 'stdio'> = {},
): Promise<CollectedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
