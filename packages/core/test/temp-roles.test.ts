import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, tempRoleDurationRefusal } from '../src/temp-roles.ts';

describe('temporary role durations', () => {
  it('parses what an admin types', () => {
    expect(parseDuration('10m')).toBe(600);
    expect(parseDuration('2h')).toBe(7200);
    expect(parseDuration('7d')).toBe(604_800);
    expect(parseDuration('1w2d')).toBe(9 * 86_400);
    expect(parseDuration(' 1h 30m ')).toBe(5400);
    expect(parseDuration('90s')).toBe(90);
    expect(parseDuration('15')).toBe(900);
    expect(parseDuration('2H')).toBe(7200);
  });

  it('answers null for anything else', () => {
    for (const text of ['', 'soon', '10 minutes', '1.5h', '-5m', 'h', '10m!', '5y']) {
      expect(parseDuration(text), text).toBeNull();
    }
  });

  it('refuses durations outside a minute to a year', () => {
    expect(tempRoleDurationRefusal(null)).toMatch(/^That is not a duration\./);
    expect(tempRoleDurationRefusal(59)).toMatch(/at least a minute/);
    expect(tempRoleDurationRefusal(60)).toBeNull();
    expect(tempRoleDurationRefusal(365 * 86_400)).toBeNull();
    expect(tempRoleDurationRefusal(365 * 86_400 + 1)).toMatch(/at most 365 days/);
  });

  it('says a duration with its two largest units', () => {
    expect(formatDuration(7200)).toBe('2 hours');
    expect(formatDuration(86_400 + 3600 + 60)).toBe('1 day 1 hour');
    expect(formatDuration(60)).toBe('1 minute');
    expect(formatDuration(45)).toBe('45 seconds');
  });
});
