import type { LevelCurve } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import {
  curvePreview,
  decayedXp,
  expectedMessageXp,
  levelForTotalXp,
  levelProgress,
  levelUpAfter,
  periodStartDay,
  rollMessageXp,
  sameCurve,
  totalXpForLevel,
  xpToNextLevel,
} from '../src/index.ts';

const steep: LevelCurve = { kind: 'quadratic', a: 10, b: 0, c: 50 };
const table: LevelCurve = { kind: 'table', xp: [100, 200, 300] };

describe('the level curve', () => {
  it('takes a·L² + b·L + c from level L to L+1', () => {
    expect(xpToNextLevel(0, steep)).toBe(50);
    expect(xpToNextLevel(3, steep)).toBe(140);
    expect(totalXpForLevel(3, steep)).toBe(50 + 60 + 90);
  });

  it('takes a table entry per level and repeats the last one past its end', () => {
    expect([0, 1, 2, 3, 9].map((l) => xpToNextLevel(l, table))).toEqual([100, 200, 300, 300, 300]);
    expect(totalXpForLevel(5, table)).toBe(100 + 200 + 300 + 300 + 300);
    expect(levelForTotalXp(599, table)).toBe(2);
    expect(levelForTotalXp(600, table)).toBe(3);
    expect(levelForTotalXp(1199, table)).toBe(4);
  });

  it('finds the level of any XP as the largest level whose total it reaches, on every curve', () => {
    for (const curve of [steep, table, { kind: 'quadratic', a: 0, b: 0, c: 1 } as LevelCurve, undefined]) {
      for (const xp of [0, 1, 99, 100, 101, 5_000, 123_456, 9_999_999]) {
        const level = levelForTotalXp(xp, curve);
        expect(totalXpForLevel(level, curve)).toBeLessThanOrEqual(xp);
        expect(totalXpForLevel(level + 1, curve)).toBeGreaterThan(xp);
      }
    }
  });

  it('answers progress and level-ups under the given curve', () => {
    expect(levelProgress(60, steep)).toEqual({ level: 1, xpIntoLevel: 10, xpForNext: 60 });
    expect(levelUpAfter(40, 60, steep)).toBe(1);
    expect(levelUpAfter(40, 60)).toBeNull();
  });

  it('previews levels 1–N with the XP each takes and the total', () => {
    expect(curvePreview(table, 4)).toEqual([
      { level: 1, xp_for_level: 100, total_xp: 100 },
      { level: 2, xp_for_level: 200, total_xp: 300 },
      { level: 3, xp_for_level: 300, total_xp: 600 },
      { level: 4, xp_for_level: 300, total_xp: 900 },
    ]);
    expect(sameCurve(steep, { ...steep })).toBe(true);
    expect(sameCurve(steep, table)).toBe(false);
  });
});

describe('the XP range', () => {
  it('draws every amount of the range and nothing outside it', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 100; i += 1) seen.add(rollMessageXp(15, 25, () => i / 100));
    expect([...seen].sort((a, b) => a - b)).toEqual([15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(rollMessageXp(15, 25, () => 0.999_999_9)).toBe(25);
    expect(rollMessageXp(10, 10)).toBe(10);
    expect(expectedMessageXp(15, 25)).toBe(20);
  });
});

describe('leaderboard periods', () => {
  it('starts a week on its UTC Monday and a month on its 1st', () => {
    expect(periodStartDay('week', new Date('2026-11-29T23:59:00Z'))).toBe('2026-11-23'); // a Sunday
    expect(periodStartDay('week', new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23');
    expect(periodStartDay('month', new Date('2026-11-29T10:00:00Z'))).toBe('2026-11-01');
    expect(periodStartDay('all', new Date())).toBeNull();
  });
});

describe('XP decay', () => {
  it('takes the share of XP but never below the level floor unless allowed', () => {
    expect(decayedXp(1000, { percent_per_week: 10, below_level_floor: false }, 0)).toBe(900);
    expect(decayedXp(1000, { percent_per_week: 10, below_level_floor: false }, 950)).toBe(950);
    expect(decayedXp(1000, { percent_per_week: 10, below_level_floor: true }, 950)).toBe(900);
    expect(decayedXp(900, { percent_per_week: 50, below_level_floor: false }, 950)).toBe(900);
  });
});
