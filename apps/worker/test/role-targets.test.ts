import { shardOfGuild } from '@spacecadet/contract';
import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import type { APIRole } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { roleTargets } from '../src/features/color-roles/role-targets.ts';
import { findOrphanRole } from '../src/roles/pending-roles.ts';

const palette: StoredColor[] = [
  {
    id: 1,
    groupId: 1,
    position: 1,
    name: 'Red',
    hex: '#E53935',
    roleId: '10',
    shades: [
      { id: 11, name: 'Crimson', hex: '#DC143C', roleId: null },
      { id: 12, name: 'Dark Red', hex: '#8B0000', roleId: '12' },
    ],
  },
  { id: 2, groupId: 1, position: 2, name: 'Teal', hex: '#008080', roleId: null, shades: [] },
];

const role = (id: string, name: string, color: number, managed = false): APIRole =>
  ({ id, name, color, managed, position: 1, permissions: '0' }) as APIRole;

describe('roleTargets', () => {
  it('basic mode: one role per colour', () => {
    expect(roleTargets(palette, 'basic').map((t) => [t.key, t.name, t.color, t.roleId])).toEqual([
      ['color:1', 'Red', 0xe53935, '10'],
      ['color:2', 'Teal', 0x008080, null],
    ]);
  });

  it('shades mode: one per shade, and a colour without shades keeps its own', () => {
    expect(roleTargets(palette, 'shades').map((t) => [t.key, t.name, t.roleId])).toEqual([
      ['shade:11', 'Crimson', null],
      ['shade:12', 'Dark Red', '12'],
      ['color:2', 'Teal', null],
    ]);
  });
});

describe('findOrphanRole', () => {
  const target = { name: 'Crimson', color: 0xdc143c };
  it.each([
    ['the exact name and colour', [role('50', 'Crimson', 0xdc143c)], '50'],
    ['the newest of several', [role('50', 'Crimson', 0xdc143c), role('70', 'Crimson', 0xdc143c)], '70'],
    ['nothing with another colour', [role('50', 'Crimson', 0x000001)], undefined],
    ['nothing with another name', [role('50', 'crimson', 0xdc143c)], undefined],
    ['nothing managed by an integration', [role('50', 'Crimson', 0xdc143c, true)], undefined],
    ['nothing already recorded', [role('12', 'Crimson', 0xdc143c)], undefined],
  ])('finds %s', (_what, roles, expected) => {
    expect(findOrphanRole(roles, target, new Set(['12']))?.id).toBe(expected);
  });
});

describe('shardOfGuild', () => {
  it.each([
    ['300000000000000001', 2, 0],
    ['300000000002228227', 2, 1],
    ['41771983423143937', 1, 0],
    ['41771983423143937', 3, Number((41771983423143937n >> 22n) % 3n)],
  ])('%s of %i shards is on shard %i', (guildId, count, shard) => {
    expect(shardOfGuild(guildId, count)).toBe(shard);
  });
});
