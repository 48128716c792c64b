import { describe, expect, it } from 'vitest';
import {
  CHANNEL_ID_PATTERN,
  CONFIG_MAX_BYTES,
  colorRolesModeOf,
  configByteLength,
  isChannelId,
} from '../src/config.ts';

describe('CHANNEL_ID_PATTERN', () => {
  it.each([
    ['12345', true],
    ['300000000000000011', true],
    ['12345678901234567890', true],
    ['1234', false],
    ['123456789012345678901', false],
    ['12a45', false],
    ['', false],
    [' 12345', false],
  ])('%s -> %s', (value, ok) => {
    expect(CHANNEL_ID_PATTERN.test(value)).toBe(ok);
    expect(isChannelId(value)).toBe(ok);
  });
});

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
  it.each<[unknown, 'basic' | 'shades']>([
    [{ color_roles_mode: 'shades' }, 'shades'],
    [{ color_roles_mode: 'basic' }, 'basic'],
    [{ color_roles_mode: 'rainbow' }, 'basic'],
    [{}, 'basic'],
    [null, 'basic'],
  ])('colorRolesModeOf(%o) = %s', (data, mode) => {
    expect(colorRolesModeOf(data)).toBe(mode);
  });
});
