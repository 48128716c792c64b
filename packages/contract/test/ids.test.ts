import { describe, expect, it } from 'vitest';
import {
  ChannelId,
  ColorRolesMode,
  decodeInstallState,
  encodeInstallState,
  GuildConfigData,
  isSnowflake,
  parseJobId,
  Snowflake,
  snowflake,
} from '../src/index.ts';

const digits = (length: number) => '1234567890'.repeat(3).slice(0, length);

describe('the one Discord id definition', () => {
  it.each([5, 6, 17, 18, 19, 20])('accepts %i digits', (length) => {
    const id = digits(length);
    expect(isSnowflake(id)).toBe(true);
    expect(Snowflake.safeParse(id).success).toBe(true);
    expect(ChannelId.safeParse(id).success).toBe(true);
  });

  it.each([
    ['4 digits', digits(4)],
    ['21 digits', digits(21)],
    ['a letter', '12a45'],
    ['a sign', '+12345'],
    ['a decimal point', '123.45'],
    ['a leading space', ' 12345'],
    ['a trailing newline', '12345\n'],
    ['non-ASCII digits', '١٢٣٤٥'],
    ['empty', ''],
  ])('refuses %s', (_name, value) => {
    expect(isSnowflake(value)).toBe(false);
    expect(Snowflake.safeParse(value).success).toBe(false);
    expect(ChannelId.safeParse(value).success).toBe(false);
  });

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
    expect(isSnowflake(value)).toBe(ok);
  });

  it('keeps each caller its own message', () => {
    expect(snowflake('must be a Discord id').safeParse('12').error?.issues[0]?.message).toBe(
      'must be a Discord id',
    );
    expect(ChannelId.safeParse('12').error?.issues[0]?.message).toBe('Channel ID required');
    expect(ChannelId.safeParse(undefined).error?.issues[0]?.message).toBe('Channel ID required');
    expect(Snowflake.safeParse('12').error?.issues[0]?.message).toBe(
      'Expected a Discord id (5 to 20 digits)',
    );
  });

  it('is the rule of job ids and install states too', () => {
    expect(parseJobId(`color-roles.generate.${digits(5)}`)).toEqual({
      name: 'color-roles.generate',
      guildId: digits(5),
    });
    expect(parseJobId(`color-roles.generate.${digits(4)}`)).toBeNull();
    expect(parseJobId(`color-roles.generate.${digits(21)}`)).toBeNull();
    expect(decodeInstallState(encodeInstallState(digits(20)))).toBe(digits(20));
    expect(decodeInstallState(encodeInstallState(digits(4)))).toBeUndefined();
  });
});

describe('ColorRolesMode', () => {
  it('is exactly basic and shades', () => {
    expect(ColorRolesMode.options).toEqual(['basic', 'shades']);
  });

  it.each([
    ['basic', true],
    ['shades', true],
    ['rainbow', false],
    ['Basic', false],
    ['', false],
    [undefined, false],
    [1, false],
  ])('%s -> %s', (value, ok) => {
    expect(ColorRolesMode.safeParse(value).success).toBe(ok);
    expect(GuildConfigData.safeParse({ color_roles_mode: value }).success).toBe(ok || value === undefined);
  });

  it('names the modes when a config holds another', () => {
    const result = GuildConfigData.safeParse({ color_roles_mode: 'rainbow' });
    expect(result.error?.issues[0]?.message).toBe('color_roles_mode must be basic or shades');
  });
});
