import { describe, expect, it } from 'vitest';
import { guildIdFromState, installedGuildFromQuery } from './install.ts';

const state = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('installedGuildFromQuery', () => {
  it.each([
    ['install=success&guild_id=300000000000000001', { guildId: '300000000000000001' }],
    [`install=success&state=${state({ guildId: '300000000000000002' })}`, { guildId: '300000000000000002' }],
    ['install=success', { guildId: null }],
    ['install=success&state=garbage', { guildId: null }],
    ['guild_id=300000000000000001', null],
  ])('%s -> %j', (query, expected) => {
    expect(installedGuildFromQuery(new URLSearchParams(query))).toEqual(expected);
  });

  it('ignores a state whose guildId is not an id', () => {
    expect(guildIdFromState(state({ guildId: 'abc' }))).toBeNull();
  });
});
