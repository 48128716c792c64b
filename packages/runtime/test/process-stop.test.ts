import { describe, expect, it } from 'vitest';
import { type GracefulStopOptions, stopOnSignals } from '../src/process-stop.ts';

function harness(close: () => Promise<void>, deadlineMs = 5_000) {
  const lines: Array<{ level: string; message: string }> = [];
  const exits: number[] = [];
  const log = (level: string) => (_fields: object, message: string) => lines.push({ level, message });
  const options: GracefulStopOptions = {
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    close,
    deadlineMs,
    messages: { repeated: 'still busy', immediate: 'exiting now', deadline: 'too slow' },
    exit: (code) => exits.push(code),
    signals: [],
  };
  return { stop: stopOnSignals(options), lines, exits };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('stopOnSignals', () => {
  it('closes once and exits 0 when the close resolves', async () => {
    let closes = 0;
    const { stop, lines, exits } = harness(async () => {
      closes += 1;
    });
    stop('SIGTERM');
    await tick();
    expect(closes).toBe(1);
    expect(exits).toEqual([0]);
    expect(lines.map((line) => line.message)).toEqual(['shutting down', 'shutdown complete']);
  });

  it('ignores a second signal, and exits 1 at once on the third', async () => {
    const { stop, lines, exits } = harness(() => new Promise(() => {}));
    stop('SIGTERM');
    stop('SIGTERM');
    await tick();
    expect(exits).toEqual([]);
    expect(lines.at(-1)).toEqual({
      level: 'warn',
      message: 'still busy; send the signal once more to exit at once',
    });
    stop('SIGINT');
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toEqual({ level: 'warn', message: 'exiting now' });
  });

  it('exits 1 when the close outlives its deadline, or fails', async () => {
    const hanging = harness(() => new Promise(() => {}), 20);
    hanging.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(hanging.exits).toEqual([1]);
    expect(hanging.lines.at(-1)).toEqual({ level: 'error', message: 'too slow' });

    const failing = harness(async () => {
      throw new Error('redis gone');
    });
    failing.stop('SIGTERM');
    await tick();
    expect(failing.exits).toEqual([1]);
    expect(failing.lines.at(-1)).toEqual({ level: 'error', message: 'shutdown failed' });
  });
});
