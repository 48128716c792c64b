import { describe, expect, it } from 'vitest';
import {
  classifyLeavers,
  countHolders,
  historyChanges,
  isUndoable,
  levelingResetImpact,
  rolesResetImpact,
} from '../src/history.ts';

describe('historyChanges', () => {
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

describe('confirmation sentences', () => {
  it('count with thousands separators and singulars', () => {
    expect(rolesResetImpact(38, 1412)).toBe('Delete 38 roles held by 1,412 members.');
    expect(rolesResetImpact(1, 1)).toBe('Delete 1 role held by 1 member.');
    expect(levelingResetImpact(1204, 0, 2)).toBe('Remove the XP of 1,204 members and delete 2 boosts.');
  });

  it('countHolders counts a member once however many of the roles they hold', () => {
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
