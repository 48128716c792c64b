import { describe, expect, it } from 'vitest';
import {
  classifyLeavers,
  countHolders,
  historyChanges,
  historyRefIds,
  isUndoable,
  levelingResetDone,
  levelingResetImpact,
  pruneImpact,
  type RoleUsageParts,
  rolesResetImpact,
  roleUsageSummary,
} from '../src/history.ts';

describe('historyChanges', () => {
  it('reads only fields the objects have: a key named like an Object.prototype member is data', () => {
    const after = JSON.parse('{"constructor": 1, "__proto__": {"x": 1}, "toString": "a"}');
    expect(historyChanges({}, after)).toEqual([
      { field: 'constructor', before: null, after: '1' },
      { field: '__proto__', before: null, after: '{"x":1}' },
      { field: 'toString', before: null, after: 'a' },
    ]);
    expect(historyChanges(after, after)).toEqual([]);
    expect(historyChanges(after, {})).toHaveLength(3);
  });

  it('lists the top-level fields that changed, values as the page shows them', () => {
    expect(historyChanges({ a: 1, b: 'x', c: [1] }, { a: 2, b: 'x', c: [1, 2] })).toEqual([
      { field: 'a', before: '1', after: '2' },
      { field: 'c', before: '[1]', after: '[1,2]' },
    ]);
  });

  it('shows a created or deleted object field by field, not as one blob', () => {
    expect(historyChanges(null, { welcome: 'hi' })).toEqual([
      { field: 'welcome', before: null, after: 'hi' },
    ]);
    expect(historyChanges({ title: 'Pronouns' }, null)).toEqual([
      { field: 'title', before: 'Pronouns', after: null },
    ]);
  });

  it('compares anything else as a whole', () => {
    expect(historyChanges('1', '2', 'channel')).toEqual([{ field: 'channel', before: '1', after: '2' }]);
    expect(historyChanges([1], [1])).toEqual([]);
  });
});

describe('isUndoable', () => {
  it('needs an undo kind, no undo yet, and for a snapshot a whole one', () => {
    expect(isUndoable({ undoKind: 'state', undoneBy: null, snapshotReady: false })).toBe(true);
    expect(isUndoable({ undoKind: 'state', undoneBy: 4, snapshotReady: false })).toBe(false);
    expect(isUndoable({ undoKind: null, undoneBy: null, snapshotReady: true })).toBe(false);
    expect(isUndoable({ undoKind: 'snapshot', undoneBy: null, snapshotReady: false })).toBe(false);
    expect(isUndoable({ undoKind: 'snapshot', undoneBy: null, snapshotReady: true })).toBe(true);
  });
});

describe('countHolders', () => {
  it('counts a member once however many of the roles they hold', () => {
    const members = [{ roles: ['1', '2'] }, { roles: ['3'] }, { roles: ['2'] }];
    expect(countHolders(new Set(['1', '2']), members)).toBe(2);
  });
});

describe('classifyLeavers', () => {
  const startedAt = new Date('2026-11-26T10:00:00Z');
  const before = new Date('2026-11-26T09:00:00Z');
  const during = new Date('2026-11-26T10:00:01Z');
  const withXp = [
    { userId: 'gone-marked', leftAt: before },
    { userId: 'gone-unmarked', leftAt: null },
    { userId: 'back', leftAt: before },
    { userId: 'here', leftAt: null },
    { userId: 'left-during-run', leftAt: during },
  ];

  it('deletes the marked absent, asks about the unmarked absent, unmarks the returned', () => {
    expect(classifyLeavers(withXp, new Set(['back', 'here']), startedAt)).toEqual({
      markedGone: ['gone-marked'],
      toConfirm: ['gone-unmarked'],
      returned: ['back'],
    });
  });

  it('asks about everyone when there is no member list', () => {
    expect(classifyLeavers(withXp, null, startedAt).toConfirm).toEqual(withXp.map((m) => m.userId));
  });
});

describe('history sentences', () => {
  it.each([
    [2, 0, 0, 'Reset leveling: deleted the XP of 2 members'],
    [1, 1, 0, 'Reset leveling: deleted the XP of 1 member and 1 reward role'],
    [2, 0, 3, 'Reset leveling: deleted the XP of 2 members and 3 boosts'],
    [1_204, 5, 2, 'Reset leveling: deleted the XP of 1,204 members, 5 reward roles and 2 boosts'],
    [0, 2, 1, 'Reset leveling: deleted 2 reward roles and 1 boost'],
    [0, 0, 0, 'Reset leveling: there was nothing to delete'],
  ])('levelingResetDone(%i, %i, %i) = %s', (members, roles, boosts, sentence) => {
    expect(levelingResetDone(members, roles, boosts)).toBe(sentence);
  });

  it.each([
    [3, 0, 0, 'Remove the XP of 3 members.'],
    [3, 1, 0, 'Remove the XP of 3 members and delete 1 reward role.'],
    [1, 5, 2, 'Remove the XP of 1 member and delete 5 reward roles and 2 boosts.'],
  ])('levelingResetImpact(%i, %i, %i) = %s', (members, roles, boosts, sentence) => {
    expect(levelingResetImpact(members, roles, boosts)).toBe(sentence);
  });

  it.each([
    [0, 0, 'No roles to delete.'],
    [38, 412, 'Delete 38 roles held by 412 members.'],
    [1, 1, 'Delete 1 role held by 1 member.'],
  ])('rolesResetImpact(%i, %i) = %s', (roles, members, sentence) => {
    expect(rolesResetImpact(roles, members)).toBe(sentence);
  });

  const usage = (parts: Partial<RoleUsageParts>): RoleUsageParts => ({
    menus: [],
    rewardRoles: 0,
    noXpRoles: 0,
    boosts: 0,
    ...parts,
  });
  const TAIL = ' They stop giving these roles until the reset is undone.';
  it.each<[RoleUsageParts, string]>([
    [usage({}), ''],
    [
      usage({ menus: [{ name: 'Games', reactionList: false }] }),
      `Also used by the role menu "Games".${TAIL}`,
    ],
    [
      usage({
        menus: [
          { name: 'Color Roles', reactionList: true },
          { name: 'Games', reactionList: false },
          { name: 'Pings', reactionList: false },
        ],
      }),
      `Also used by 2 role menus ("Games", "Pings") and the Color Roles reaction list.${TAIL}`,
    ],
    [
      usage({ rewardRoles: 1, noXpRoles: 2, boosts: 1 }),
      `Also used by 1 level reward, 2 no-XP roles and 1 role boost.${TAIL}`,
    ],
  ])('roleUsageSummary(%o) = %s', (parts, sentence) => {
    expect(roleUsageSummary(parts)).toBe(sentence);
  });

  it('pruneImpact says when there is nothing to prune', () => {
    expect(pruneImpact(0)).toMatch(/^No leavers to prune/);
    expect(pruneImpact(12)).toBe('Remove the XP of 12 members who left.');
  });
});

describe('historyRefIds', () => {
  it('finds each Discord id a summary or a state mentions, once, never part of a longer number', () => {
    expect(
      historyRefIds(
        'Set the XP of <@200000000000000003>: 300 → 1200',
        { user_id: '-channel:300000000000000011', roles: ['300000000000000021', '200000000000000003'] },
        { count: '1234567890123456789012' },
        null,
      ),
    ).toEqual(['200000000000000003', '300000000000000011', '300000000000000021']);
  });
});
