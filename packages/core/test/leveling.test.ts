import { describe, expect, it } from 'vitest';
import {
  activeBoostMultiplier,
  boostTarget,
  clampCooldown,
  clampXpPerMessage,
  type LevelingBoost,
  levelForTotalXp,
  levelProgress,
  levelUpAfter,
  normalizeBoostMultiplier,
  normalizeLevelRequired,
  normalizeLevelRoleName,
  normalizeMultiplier,
  previousUtcDay,
  rewardRoleChanges,
  rewardRolesForLevel,
  rewardRolesOfLevelUp,
  totalXpForLevel,
  utcDay,
  xpForMessage,
  xpToNextLevel,
} from '../src/index.ts';

describe('xpToNextLevel', () => {
  it.each([
    [0, 100],
    [1, 155],
    [2, 220],
    [10, 1100],
    [50, 15100],
  ])('level %i needs %i XP to advance', (level, xp) => {
    expect(xpToNextLevel(level)).toBe(xp);
  });
});

describe('totalXpForLevel', () => {
  it.each([
    [0, 0],
    [1, 100],
    [2, 255],
    [3, 475],
    [4, 770],
  ])('level %i starts at %i total XP', (level, xp) => {
    expect(totalXpForLevel(level)).toBe(xp);
  });

  it('matches summing the per-level curve up to level 200', () => {
    let sum = 0;
    for (let level = 0; level <= 200; level++) {
      expect(totalXpForLevel(level)).toBe(sum);
      sum += xpToNextLevel(level);
    }
  });
});

describe('levelForTotalXp', () => {
  it.each([
    [0, 0],
    [-5, 0],
    [Number.NaN, 0],
    [99, 0],
    [100, 1],
    [254, 1],
    [255, 2],
    [474, 2],
    [475, 3],
    [1_000_000, 79],
    [1_003_400, 80],
  ])('%d XP is level %i', (xp, level) => {
    expect(levelForTotalXp(xp)).toBe(level);
  });

  it('is the inverse of totalXpForLevel at every boundary up to level 500', () => {
    for (let level = 1; level <= 500; level++) {
      const start = totalXpForLevel(level);
      expect(levelForTotalXp(start)).toBe(level);
      expect(levelForTotalXp(start - 1)).toBe(level - 1);
    }
  });

  it('reports progress within the level', () => {
    expect(levelProgress(300)).toEqual({ level: 2, xpIntoLevel: 45, xpForNext: 220 });
  });
});

describe('xpForMessage', () => {
  it.each([
    [{ xpPerMessage: 10, multiplier: 1, boost: 1 }, 10],
    [{ xpPerMessage: 10, multiplier: 1.5, boost: 2 }, 30],
    [{ xpPerMessage: 15, multiplier: 0.1, boost: 1 }, 2],
    [{ xpPerMessage: 10, multiplier: 0, boost: 3 }, 0],
    [{ xpPerMessage: 7, multiplier: 1.25, boost: 1 }, 9],
    [{ xpPerMessage: 10, multiplier: Number.NaN, boost: 1 }, 0],
  ])('%o earns %i XP', (input, xp) => {
    expect(xpForMessage(input)).toBe(xp);
  });
});

describe('activeBoostMultiplier', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const member = { userId: '200000000000000001', roleIds: ['400000000000000001'], now };
  const boost = (
    multiplier: number,
    userId: string | null,
    expiresAt: string | null = null,
  ): LevelingBoost => ({
    multiplier,
    userId,
    expiresAt,
  });

  it.each<[string, LevelingBoost[], number]>([
    ['no boosts', [], 1],
    ['server-wide', [boost(2, null)], 2],
    ['the member', [boost(3, '200000000000000001')], 3],
    ['another member', [boost(3, '200000000000000002')], 1],
    ['a role the member has', [boost(1.5, '-role:400000000000000001')], 1.5],
    ['a role the member lacks', [boost(4, '-role:400000000000000009')], 1],
    ['expired', [boost(5, null, '2026-01-01T11:59:59Z')], 1],
    ['expiring exactly now', [boost(5, null, '2026-01-01T12:00:00Z')], 1],
    ['not yet expired', [boost(5, null, '2026-01-01T12:00:01Z')], 5],
    [
      'largest of several',
      [boost(2, null), boost(3, '-role:400000000000000001'), boost(2.5, '200000000000000001')],
      3,
    ],
    ['expired larger ignored', [boost(2, null), boost(9, '200000000000000001', '2025-12-31T00:00:00Z')], 2],
    ['a sub-1 boost that applies', [boost(0.5, null)], 0.5],
  ])('%s', (_name, boosts, expected) => {
    expect(activeBoostMultiplier(boosts, member)).toBe(expected);
  });

  it('accepts Date expiries', () => {
    expect(
      activeBoostMultiplier(
        [{ multiplier: 2, userId: null, expiresAt: new Date(now.getTime() + 1) }],
        member,
      ),
    ).toBe(2);
  });

  it.each([
    [null, { kind: 'server' }],
    ['123', { kind: 'user', userId: '123' }],
    ['-role:456', { kind: 'role', roleId: '456' }],
  ])('boostTarget(%s)', (userId, target) => {
    expect(boostTarget(userId)).toEqual(target);
  });
});

describe('clamps and defaults', () => {
  it.each<[unknown, number]>([
    [10, 10],
    [-1, 0],
    [0, 0],
    [1000, 1000],
    [1001, 1000],
    ['25', 25],
    ['abc', 10],
    [undefined, 10],
    [Number.NaN, 10],
    [12.6, 13],
  ])('clampXpPerMessage(%s) = %i', (input, expected) => {
    expect(clampXpPerMessage(input)).toBe(expected);
  });

  it.each<[unknown, number]>([
    [30, 30],
    [-5, 0],
    [600, 600],
    [601, 600],
    [undefined, 30],
    ['x', 30],
  ])('clampCooldown(%s) = %i', (input, expected) => {
    expect(clampCooldown(input)).toBe(expected);
  });

  it.each<[unknown, number]>([
    [1, 1],
    [1.5, 1.5],
    [0, 0],
    [-2, 0],
    [Number.NaN, 1],
    ['abc', 1],
    [undefined, 1],
    ['2.5', 2.5],
  ])('normalizeMultiplier(%s) = %d', (input, expected) => {
    expect(normalizeMultiplier(input)).toBe(expected);
  });

  it.each<[unknown, number]>([
    [undefined, 2],
    [null, 2],
    ['', 2],
    [3, 3],
    ['1.5', 1.5],
    ['abc', 1],
    [Number.NaN, 1],
    [-1, 1],
  ])('normalizeBoostMultiplier(%s) = %d', (input, expected) => {
    expect(normalizeBoostMultiplier(input)).toBe(expected);
  });

  it.each<[unknown, string]>([
    [undefined, 'Level Reward'],
    ['   ', 'Level Reward'],
    [' Veteran ', 'Veteran'],
    ['x'.repeat(150), 'x'.repeat(100)],
  ])('normalizeLevelRoleName(%s)', (input, expected) => {
    expect(normalizeLevelRoleName(input)).toBe(expected);
  });

  it.each<[unknown, number]>([
    [undefined, 1],
    ['abc', 1],
    [-3, 0],
    [0, 0],
    [7, 7],
    [7.9, 7],
  ])('normalizeLevelRequired(%s) = %i', (input, expected) => {
    expect(normalizeLevelRequired(input)).toBe(expected);
  });
});

describe('rewardRolesForLevel', () => {
  const roles = [
    { name: 'Ten', levelRequired: 10 },
    { name: 'One', levelRequired: 1 },
    { name: 'Five', levelRequired: 5 },
  ];
  it.each([
    [0, []],
    [1, ['One']],
    [5, ['One', 'Five']],
    [9, ['One', 'Five']],
    [10, ['One', 'Five', 'Ten']],
  ])('level %i stacks %o', (level, names) => {
    expect(rewardRolesForLevel(roles, level).map((role) => role.name)).toEqual(names);
    expect(rewardRolesForLevel(roles, level, 'stack').map((role) => role.name)).toEqual(names);
  });

  it.each([
    [0, []],
    [1, ['One']],
    [5, ['Five']],
    [9, ['Five']],
    [10, ['Ten']],
    [99, ['Ten']],
  ])('level %i keeps only the highest reward reached, %o', (level, names) => {
    expect(rewardRolesForLevel(roles, level, 'highest').map((role) => role.name)).toEqual(names);
  });

  it('keeps every reward of the highest level when two share it', () => {
    const tied = [...roles, { name: 'Also Five', levelRequired: 5 }];
    expect(
      rewardRolesForLevel(tied, 7, 'highest')
        .map((role) => role.name)
        .sort(),
    ).toEqual(['Also Five', 'Five']);
  });
});

describe('rewardRolesOfLevelUp', () => {
  const roles = [
    { name: 'Ten', levelRequired: 10 },
    { name: 'One', levelRequired: 1 },
    { name: 'Three', levelRequired: 3 },
    { name: 'Five', levelRequired: 5 },
  ];
  it.each<[number, number, 'stack' | 'highest', string[]]>([
    [0, 1, 'stack', ['One']],
    [0, 1, 'highest', ['One']],
    [1, 2, 'stack', []],
    [1, 2, 'highest', []],
    // Several levels crossed in one flush.
    [0, 4, 'stack', ['One', 'Three']],
    [0, 4, 'highest', ['Three']],
    [2, 7, 'stack', ['Three', 'Five']],
    [2, 7, 'highest', ['Five']],
    // Past the last reward: the highest reached was given before, nothing new.
    [5, 8, 'highest', []],
    [9, 10, 'highest', ['Ten']],
  ])('from level %i to %i (%s) gives %o', (from, to, mode, names) => {
    expect(rewardRolesOfLevelUp(roles, from, to, mode).map((role) => role.name)).toEqual(names);
  });
});

describe('rewardRoleChanges', () => {
  const roles = [
    { name: 'One', levelRequired: 1, roleId: 'r1' },
    { name: 'Five', levelRequired: 5, roleId: 'r5' },
    { name: 'Ten', levelRequired: 10, roleId: 'r10' },
    { name: 'Pending', levelRequired: 3, roleId: null },
  ];
  const names = (list: readonly { name: string }[]) => list.map((role) => role.name);
  it.each<[string, number, 'stack' | 'highest', string[], string[], string[]]>([
    ['nothing held, stack', 5, 'stack', [], ['One', 'Five'], []],
    ['nothing held, highest', 5, 'highest', [], ['Five'], []],
    ['in line, stack', 5, 'stack', ['r1', 'r5', 'other'], [], []],
    ['in line, highest', 5, 'highest', ['r5', 'other'], [], []],
    ['lower reward dropped, highest', 10, 'highest', ['r1', 'r5'], ['Ten'], ['One', 'Five']],
    ['above the level removed, stack', 1, 'stack', ['r1', 'r5', 'r10'], [], ['Five', 'Ten']],
    ['above the level removed, highest', 7, 'highest', ['r1', 'r10'], ['Five'], ['One', 'Ten']],
    // The highest reward reached is still pending (no Discord role): nothing to give yet.
    ['highest pending, highest', 4, 'highest', ['r1', 'r5'], [], ['One', 'Five']],
    ['level 0 loses every reward', 0, 'stack', ['r1', 'r5', 'r10', 'other'], [], ['One', 'Five', 'Ten']],
  ])('%s', (_case, level, mode, held, add, remove) => {
    const changes = rewardRoleChanges(roles, level, mode, held);
    expect(names(changes.add)).toEqual(add);
    expect(names(changes.remove)).toEqual(remove);
  });

  it('treats two rewards on one Discord role as one role, held while either is due', () => {
    const shared = [
      { name: 'One', levelRequired: 1, roleId: 'same' },
      { name: 'Five', levelRequired: 5, roleId: 'same' },
    ];
    expect(rewardRoleChanges(shared, 5, 'stack', [])).toEqual({ add: [shared[0]], remove: [] });
    expect(rewardRoleChanges(shared, 5, 'highest', ['same'])).toEqual({ add: [], remove: [] });
    expect(rewardRoleChanges(shared, 0, 'stack', ['same'])).toEqual({ add: [], remove: [shared[0]] });
  });
});

describe('level-ups and days', () => {
  it.each<[number, number, number | null]>([
    [0, 10, null],
    [90, 100, 1],
    [99, 255, 2],
    [100, 254, null],
    [0, 475, 3],
  ])('%i -> %i XP levels up to %s', (before, after, level) => {
    expect(levelUpAfter(before, after)).toBe(level);
  });

  it.each([
    ['2026-03-01T00:00:00Z', '2026-03-01', '2026-02-28'],
    ['2026-01-01T23:59:59.999Z', '2026-01-01', '2025-12-31'],
    ['2028-03-01T00:30:00+01:00', '2028-02-29', '2028-02-28'],
  ])('%s is UTC day %s, overview reports %s', (at, day, previous) => {
    expect(utcDay(new Date(at))).toBe(day);
    expect(previousUtcDay(new Date(at))).toBe(previous);
  });
});
