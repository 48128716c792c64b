import { describe, expect, it } from 'vitest';
import { levelingResetDone, levelingResetImpact, pruneImpact, rolesResetImpact } from '../src/history.ts';

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

  it('pruneImpact says when there is nothing to prune', () => {
    expect(pruneImpact(0)).toMatch(/^No leavers to prune/);
    expect(pruneImpact(12)).toBe('Remove the XP of 12 members who left.');
  });
});
