import type { ColorRolesMode } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { CONFIG_MAX_BYTES, colorRolesModeOf, configByteLength } from '../src/config.ts';

describe('config limits', () => {
  it('allows 64 KiB', () => {
    expect(CONFIG_MAX_BYTES).toBe(65536);
  });
  it.each([
    [{}, 2],
    [{ a: 'é' }, 10],
  ])('configByteLength(%o) = %i', (data, bytes) => {
    expect(configByteLength(data)).toBe(bytes);
  });
  it.each<[unknown, ColorRolesMode]>([
    [{ color_roles_mode: 'shades' }, 'shades'],
    [{ color_roles_mode: 'basic' }, 'basic'],
    [{ color_roles_mode: 'rainbow' }, 'basic'],
    [{}, 'basic'],
    [null, 'basic'],
  ])('colorRolesModeOf(%o) = %s', (data, mode) => {
    expect(colorRolesModeOf(data)).toBe(mode);
  });
});
