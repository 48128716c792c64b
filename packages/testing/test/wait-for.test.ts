import { describe, expect, it } from 'vitest';
import { waitFor } from '../src/index.ts';

describe('waitFor', () => {
  it('resolves with the first value the check gives once the condition holds', async () => {
    let calls = 0;
    const value = await waitFor('the third call', () => {
      calls += 1;
      return calls >= 3 ? { calls } : undefined;
    });
    expect(value).toEqual({ calls: 3 });
  });

  it('keeps polling past false and thrown errors', async () => {
    let calls = 0;
    const value = await waitFor('a check that fails twice', async () => {
      calls += 1;
      if (calls === 1) throw new Error('not there yet');
      return calls === 2 ? false : 'there';
    });
    expect(value).toBe('there');
    expect(calls).toBe(3);
  });

  it('resolves 0 and the empty string, which are values', async () => {
    expect(await waitFor('zero', () => 0)).toBe(0);
    expect(await waitFor('empty', () => '')).toBe('');
  });

  it('rejects at the deadline with an error naming what it awaited', async () => {
    await expect(waitFor('the moon to answer', () => undefined, { timeoutMs: 50 })).rejects.toThrow(
      /Timed out after 50 ms waiting for the moon to answer$/,
    );
  });

  it('names what the check last saw when `what` is a function', async () => {
    let seen = 0;
    await expect(
      waitFor(
        () => `the count to reach 1000 (last saw ${seen})`,
        () => {
          seen += 1;
          return seen >= 1000;
        },
        { timeoutMs: 30, intervalMs: 5 },
      ),
    ).rejects.toThrow(/waiting for the count to reach 1000 \(last saw [1-9]\d*\)$/);
  });

  it('takes the timeout alone as its third argument', async () => {
    await expect(waitFor('nothing', () => false, 40)).rejects.toThrow(
      'Timed out after 40 ms waiting for nothing',
    );
  });

  it("names the check's last error in the timeout", async () => {
    await expect(
      waitFor(
        'a row',
        () => {
          throw new Error('relation does not exist');
        },
        { timeoutMs: 50, intervalMs: 5 },
      ),
    ).rejects.toThrow('waiting for a row: Error: relation does not exist');
  });
});
