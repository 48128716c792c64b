import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exemptFromGlobalLimit, GlobalGate } from '../src/global-gate.ts';

// The gate's clock and its one timer both run on vitest's fake time, so a wait is read off the
// clock the test moves, not measured.
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

function track<T>(promise: Promise<T>) {
  const state: { value: T | undefined; done: boolean } = { value: undefined, done: false };
  void promise.then((value) => {
    state.value = value;
    state.done = true;
  });
  return state;
}

describe('the global gate', () => {
  it('sends N at once; the N+1th goes 1000 ms after the first answer came back', async () => {
    const gate = new GlobalGate(3, () => Date.now());
    const releases = await Promise.all([gate.acquire(), gate.acquire(), gate.acquire()]);
    const fourth = track(gate.acquire());
    await vi.advanceTimersByTimeAsync(200);
    for (const release of releases) release();
    await vi.advanceTimersByTimeAsync(999);
    expect(fourth.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(fourth.done).toBe(true);
  });

  it('holds the N+1th while the first is still in flight, however long', async () => {
    const gate = new GlobalGate(2, () => Date.now());
    const [first, second] = await Promise.all([gate.acquire(), gate.acquire()]);
    second?.();
    const third = track(gate.acquire());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(third.done).toBe(false);
    first?.();
    await vi.advanceTimersByTimeAsync(999);
    expect(third.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(third.done).toBe(true);
  });

  it('lets waiters go in the order they came, and a newcomer waits behind them', async () => {
    const gate = new GlobalGate(2, () => Date.now());
    const first = await Promise.all([gate.acquire(), gate.acquire()]);
    const order: number[] = [];
    const waiting = [1, 2, 3, 4].map((n) =>
      gate.acquire().then((release) => {
        order.push(n);
        return release;
      }),
    );
    expect(gate.waiting).toBe(4);
    for (const release of first) release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual([1, 2]);
    const late = gate.acquire().then((release) => {
      order.push(5);
      return release;
    });
    for (const release of await Promise.all(waiting.slice(0, 2))) release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual([1, 2, 3, 4]);
    for (const release of await Promise.all(waiting.slice(2))) release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    (await late)();
  });

  it('seeded after a takeover: half the limit in the first second', async () => {
    const gate = new GlobalGate(4, () => Date.now(), 2);
    const sent = [0, 1, 2, 3].map(() => track(gate.acquire()));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.done)).toEqual([true, true, false, false]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent.map((s) => s.done)).toEqual([true, true, true, true]);
  });

  it('leaves interaction callbacks and interaction webhooks out', () => {
    expect(exemptFromGlobalLimit('/interactions/123/tok-en/callback')).toBe(true);
    expect(exemptFromGlobalLimit('/webhooks/123/tok-en/messages/@original')).toBe(true);
    expect(exemptFromGlobalLimit('/webhooks/123')).toBe(false);
    expect(exemptFromGlobalLimit('/channels/123/messages')).toBe(false);
  });
});
