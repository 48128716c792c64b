import type { LeaderboardPeriod, XpDecay } from '@spacecadet/contract';
import { utcDay } from './leveling.ts';

/**
 * The admin's numbers beyond the curve: the XP range a message earns in, the first day of a
 * leaderboard period, and what XP decay leaves a member.
 */

/** The range as stored: both ends whole and within 0..max, the low end first. */
export function xpRange(min: number, max: number): { min: number; max: number } {
  const low = Math.max(0, Math.round(Math.min(min, max)));
  return { min: low, max: Math.max(low, Math.round(Math.max(min, max))) };
}

/**
 * A message's base XP: a whole amount from `min` to `max`, every one equally likely (as MEE6's
 * 15–25). `random` is `Math.random` unless a test picks the draw.
 */
export function rollMessageXp(min: number, max: number, random: () => number = Math.random): number {
  const range = xpRange(min, max);
  const span = range.max - range.min + 1;
  return range.min + Math.min(span - 1, Math.floor(random() * span));
}

/** What a message earns on average before multipliers and boosts: the middle of the range. */
export function expectedMessageXp(min: number, max: number): number {
  const range = xpRange(min, max);
  return (range.min + range.max) / 2;
}

/**
 * The first UTC day (`YYYY-MM-DD`) a period's board counts from at `now`: Monday of this UTC
 * week, or the 1st of this month. `all` and `season` are not counted from daily rows: null.
 */
export function periodStartDay(period: LeaderboardPeriod, now: Date): string | null {
  if (period === 'week') {
    const sinceMonday = (now.getUTCDay() + 6) % 7;
    return utcDay(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - sinceMonday)),
    );
  }
  if (period === 'month') return utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  return null;
}

/** `months` calendar months after `from` (the schedule's next season end). */
export function addMonths(from: Date, months: number): Date {
  const next = new Date(from.getTime());
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

/**
 * A member's XP after one week's decay: `percent_per_week` of it goes (rounded down to whole
 * XP taken), never below `floorXp` (the XP their level starts at) unless the admin allows it.
 * A member already below the floor keeps what they have.
 */
export function decayedXp(
  xp: number,
  decay: Pick<XpDecay, 'percent_per_week' | 'below_level_floor'>,
  floorXp: number,
): number {
  const kept = Math.ceil(xp * (1 - decay.percent_per_week / 100));
  if (decay.below_level_floor) return Math.max(0, kept);
  return Math.min(xp, Math.max(kept, floorXp));
}
