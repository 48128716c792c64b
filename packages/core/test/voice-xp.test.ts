import { describe, expect, it } from 'vitest';
import { type VoiceSeat, voiceMinuteEarners, voiceMinuteXp } from '../src/voice-xp.ts';

const END = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
const settings = {
  enabled: true,
  voiceXpPerMinute: 10,
  voiceMinMembers: 2,
  noXpChannels: ['quiet'],
  noXpRoles: ['muted-role'],
};
const seat = (userId: string, extra: Partial<VoiceSeat> = {}): VoiceSeat => ({
  userId,
  channelId: 'lounge',
  bot: false,
  muted: false,
  deafened: false,
  roleIds: [],
  since: END - 120_000,
  ...extra,
});
const earners = (seats: VoiceSeat[], over: Partial<typeof settings> = {}) =>
  voiceMinuteEarners({ ...settings, ...over }, 'afk', seats, END).map((s) => s.userId);

describe('voiceMinuteEarners', () => {
  it.each<[string, VoiceSeat[], Partial<typeof settings>, string[]]>([
    ['two people talking both earn', [seat('a'), seat('b')], {}, ['a', 'b']],
    ['alone earns nothing', [seat('a')], {}, []],
    ['alone earns when the minimum is 1', [seat('a')], { voiceMinMembers: 1 }, ['a']],
    ['a bot is not company', [seat('a'), seat('bot', { bot: true })], {}, []],
    [
      'a muted member counts as company but earns nothing',
      [seat('a'), seat('b', { muted: true })],
      {},
      ['a'],
    ],
    ['deafened earns nothing', [seat('a', { deafened: true }), seat('b')], {}, ['b']],
    [
      'the AFK channel earns nothing',
      [seat('a', { channelId: 'afk' }), seat('b', { channelId: 'afk' })],
      {},
      [],
    ],
    [
      'a no-XP channel earns nothing',
      [seat('a', { channelId: 'quiet' }), seat('b', { channelId: 'quiet' })],
      {},
      [],
    ],
    ['a no-XP role earns nothing', [seat('a', { roleIds: ['muted-role'] }), seat('b')], {}, ['b']],
    ['people in another channel are not company', [seat('a'), seat('b', { channelId: 'other' })], {}, []],
    [
      'joined during the minute: not a full minute',
      [seat('a', { since: END - 59_999 }), seat('b')],
      {},
      ['b'],
    ],
    [
      'joined at the minute start: a full minute',
      [seat('a', { since: END - 60_000 }), seat('b')],
      {},
      ['a', 'b'],
    ],
    ['voice XP off', [seat('a'), seat('b')], { voiceXpPerMinute: 0 }, []],
    ['leveling off', [seat('a'), seat('b')], { enabled: false }, []],
  ])('%s', (_, seats, over, expected) => {
    expect(earners(seats, over)).toEqual(expected);
  });
});

describe('voiceMinuteXp', () => {
  it.each([
    [10, 1, 1, 10],
    [10, 1.5, 2, 30],
    [15, 0.5, 1, 8],
    [10, 1, 0, 0],
  ])('%i per minute × %f × boost %f = %i', (perMinute, multiplier, boost, xp) => {
    expect(voiceMinuteXp({ perMinute, multiplier, boost })).toBe(xp);
  });
});
