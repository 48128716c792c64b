import { minuteEndAtOrBefore, VOICE_MINUTE_MS } from '@spacecadet/core';

/**
 * What voice XP reads the time from: when a member's state changed, and each minute's end.
 * The product runs on the wall clock; a test drives its own minutes.
 */
export interface MinuteClock {
  now(): number;
  /** Calls `tick` with each UTC minute's end (ms) as it passes, until the returned stop is called. */
  everyMinute(tick: (minuteEnd: number) => Promise<void>): () => void;
}

/** How long after a minute's end its tick runs: events of the minute's last instant are in. */
const TICK_AFTER_MS = 250;

export const wallClock: MinuteClock = {
  now: () => Date.now(),
  everyMinute(tick) {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const schedule = () => {
      if (stopped) return;
      const minuteEnd = minuteEndAtOrBefore(Date.now()) + VOICE_MINUTE_MS;
      timer = setTimeout(
        () => {
          void tick(minuteEnd).finally(schedule);
        },
        minuteEnd + TICK_AFTER_MS - Date.now(),
      );
    };
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  },
};
