import { encodeInstallState } from '@spacecadet/contract/install-state';
import { describe, expect, it } from 'vitest';
import { installedGuildFromQuery } from './install.ts';

const state = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('installedGuildFromQuery', () => {
  it.each([
    ['install=success&guild_id=300000000000000001', { guildId: '300000000000000001' }],
    [`install=success&state=${encodeInstallState('300000000000000002')}`, { guildId: '300000000000000002' }],
    ['install=success', { guildId: null }],
    ['install=success&state=garbage', { guildId: null }],
    ['guild_id=300000000000000001', null],
  ])('%s -> %j', (query, expected) => {
    expect(installedGuildFromQuery(new URLSearchParams(query))).toEqual(expected);
  });

  it.each([
    ['a guild_id that is not an id', state({ guild_id: 'abc' })],
    ['another key', state({ guildId: '300000000000000002' })],
    ['JSON that is not an object', state('300000000000000002')],
  ])('ignores a state with %s', (_, value) => {
    expect(installedGuildFromQuery(new URLSearchParams({ install: 'success', state: value }))).toEqual({
      guildId: null,
    });
  });
});
