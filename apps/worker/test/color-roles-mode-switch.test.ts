import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import { describe, expect, it } from 'vitest';
import { closestByHex, otherModeRoles } from '../src/features/color-roles/role-targets.ts';

const palette: StoredColor[] = [
  {
    id: 1,
    groupId: 1,
    position: 1,
    name: 'Red',
    hex: '#E53935',
    roleId: '10',
    shades: [
      { id: 11, name: 'Light Red', hex: '#FF6F61', roleId: '11' },
      { id: 12, name: 'Crimson', hex: '#DC143C', roleId: '12' },
      { id: 13, name: 'Dark Red', hex: '#8B0000', roleId: null },
    ],
  },
  { id: 2, groupId: 1, position: 2, name: 'Teal', hex: '#008080', roleId: '20', shades: [] },
  {
    id: 3,
    groupId: 1,
    position: 3,
    name: 'Blue',
    hex: '#1E88E5',
    roleId: null,
    shades: [{ id: 31, name: 'Navy', hex: '#1F305E', roleId: '31' }],
  },
];

describe('otherModeRoles', () => {
  it("shades mode retires each colour-with-shades' role; members go to the closest shade", () => {
    expect(
      otherModeRoles(palette, 'shades').map((r) => [r.key, r.roleId, r.successorRoleId, r.successorName]),
    ).toEqual([['color:1', '10', '12', 'Crimson']]);
  });

  it("basic mode retires every shade's role; members go to the shade's colour", () => {
    expect(
      otherModeRoles(palette, 'basic').map((r) => [r.key, r.roleId, r.successorRoleId, r.successorName]),
    ).toEqual([
      ['shade:11', '11', '10', 'Red'],
      ['shade:12', '12', '10', 'Red'],
      // Blue has no role yet (Generate Roles makes it first): kept until it has one.
      ['shade:31', '31', null, null],
    ]);
  });

  it('a colour without shades keeps its role in both modes', () => {
    for (const mode of ['basic', 'shades'] as const) {
      expect(otherModeRoles(palette, mode).map((r) => r.roleId)).not.toContain('20');
    }
  });

  it('never retires a role that a current target also records', () => {
    const shared: StoredColor[] = [
      { ...palette[0], roleId: '12' } as StoredColor, // Red's colour role is Crimson's too
    ];
    expect(otherModeRoles(shared, 'shades')).toEqual([]);
    expect(otherModeRoles(shared, 'basic').map((r) => r.roleId)).toEqual(['11']);
  });
});

describe('closestByHex', () => {
  it.each([
    ['#E53935', 'Crimson'],
    ['#FF7060', 'Light Red'],
    ['#800000', 'Dark Red'],
  ])('%s is closest to %s', (hex, name) => {
    expect(closestByHex(hex, palette[0]?.shades ?? [])?.name).toBe(name);
  });

  it('takes the first on a tie, and nothing from nothing', () => {
    const twins = [
      { name: 'A', hex: '#101010' },
      { name: 'B', hex: '#101010' },
    ];
    expect(closestByHex('#000000', twins)?.name).toBe('A');
    expect(closestByHex('#000000', [])).toBeUndefined();
  });
});
