import { DEFAULT_LEVEL_UP_MESSAGE, LEVEL_UP_MESSAGE_MAX } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import {
  activeBoostMultiplier,
  boostTarget,
  channelBoostUserId,
  earnsNoXp,
  type LevelingBoost,
  renderLevelUpMessage,
} from '../src/leveling.ts';

const values = {
  userId: '200000000000000003',
  username: 'nia',
  level: 5,
  server: 'Sandbox Station',
  rewards: ['Regular', 'Chatty'],
};

describe('renderLevelUpMessage', () => {
  it('fills every placeholder', () => {
    const { content } = renderLevelUpMessage(
      '{user} ({username}) reached level {level} in {server} and got {rewards}. GG {username}!',
      values,
    );
    expect(content).toBe(
      '<@200000000000000003> (nia) reached level 5 in Sandbox Station and got Regular, Chatty. GG nia!',
    );
  });

  it.each([
    ['{user} reached level {level}! {rewards}', [], '<@200000000000000003> reached level 5! '],
    [
      '{user} reached level {level}! {rewards}',
      ['Regular'],
      '<@200000000000000003> reached level 5! Regular',
    ],
    ['GG {username}{rewards}', [], 'GG nia'],
    ['Rewards: {rewards}', ['Regular', 'Chatty'], 'Rewards: Regular, Chatty'],
    // Only {rewards}, and none given: the default message rather than an empty one.
    ['{rewards}', [], '🎉 <@200000000000000003> reached **level 5**!'],
    [' {rewards} ', [], '🎉 <@200000000000000003> reached **level 5**!'],
  ])('renders %j with rewards %j as %j (nothing for none, never "none")', (template, rewards, expected) => {
    expect(renderLevelUpMessage(template, { ...values, rewards }).content).toBe(expected);
  });

  it('keeps braces that are no placeholder as written', () => {
    expect(renderLevelUpMessage('{User} {lvl} {level} {} {{level}}', values).content).toBe(
      '{User} {lvl} 5 {} {5}',
    );
  });

  it('uses the default message for a blank template', () => {
    expect(renderLevelUpMessage('   ', values).content).toBe(
      DEFAULT_LEVEL_UP_MESSAGE.replace('{user}', '<@200000000000000003>').replace('{level}', '5'),
    );
  });

  it('pings only the member, whatever the template or a name says', () => {
    const message = renderLevelUpMessage(
      '@everyone @here <@&400000000000000001> {user} {username} {rewards}',
      {
        ...values,
        username: '@everyone',
        rewards: ['@here', '<@200000000000000001>'],
      },
    );
    expect(message.allowed_mentions).toEqual({ parse: [], users: ['200000000000000003'] });
    expect(message.content).toContain('@everyone');
  });

  it(`cuts a long message to ${LEVEL_UP_MESSAGE_MAX} characters with an ellipsis`, () => {
    const { content } = renderLevelUpMessage(`{username}${'x'.repeat(1990)}`, {
      ...values,
      username: 'n'.repeat(100),
    });
    expect(content).toHaveLength(LEVEL_UP_MESSAGE_MAX);
    expect(content.endsWith('…')).toBe(true);
    const exact = renderLevelUpMessage('y'.repeat(LEVEL_UP_MESSAGE_MAX), values).content;
    expect(exact).toBe('y'.repeat(LEVEL_UP_MESSAGE_MAX));
  });

  it('never cuts an emoji in two', () => {
    const { content } = renderLevelUpMessage(`${'a'.repeat(LEVEL_UP_MESSAGE_MAX - 2)}🎉🎉`, values);
    expect(content.length).toBeLessThanOrEqual(LEVEL_UP_MESSAGE_MAX);
    expect(content).not.toMatch(/[\uD800-\uDBFF]…$/);
  });
});

describe('earnsNoXp', () => {
  const settings = { noXpChannels: ['300000000000000013'], noXpRoles: ['400000000000000007'] };
  it.each<[string, { channelId: string; roleIds: string[] }, boolean]>([
    [
      'a message in an XP channel from a plain member',
      { channelId: '300000000000000011', roleIds: [] },
      false,
    ],
    ['a message in a no-XP channel', { channelId: '300000000000000013', roleIds: [] }, true],
    [
      'a member holding a no-XP role',
      { channelId: '300000000000000011', roleIds: ['1', '400000000000000007'] },
      true,
    ],
    [
      'a member holding other roles',
      { channelId: '300000000000000011', roleIds: ['400000000000000001'] },
      false,
    ],
  ])('%s', (_name, message, expected) => {
    expect(earnsNoXp(settings, message)).toBe(expected);
  });

  it('is false with nothing configured', () => {
    expect(earnsNoXp({ noXpChannels: [], noXpRoles: [] }, { channelId: '1', roleIds: ['2'] })).toBe(false);
  });
});

describe('activeBoostMultiplier with channel boosts', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const general = '300000000000000011';
  const member = { userId: '200000000000000001', roleIds: ['400000000000000001'], now, channelId: general };
  const boost = (
    multiplier: number,
    userId: string | null,
    expiresAt: string | null = null,
  ): LevelingBoost => ({
    multiplier,
    userId,
    expiresAt,
  });

  it.each<[string, LevelingBoost[], number]>([
    ['the channel alone', [boost(3, channelBoostUserId(general))], 3],
    ['another channel', [boost(3, channelBoostUserId('300000000000000099'))], 1],
    ['member boost × channel boost', [boost(2, null), boost(0.5, channelBoostUserId(general))], 1],
    [
      'largest channel boost of several',
      [boost(2, channelBoostUserId(general)), boost(4, channelBoostUserId(general))],
      4,
    ],
    [
      'largest member boost times the channel',
      [boost(2, null), boost(3, '-role:400000000000000001'), boost(2, channelBoostUserId(general))],
      6,
    ],
    [
      'a channel boost of 0 earns nothing',
      [boost(5, '200000000000000001'), boost(0, channelBoostUserId(general))],
      0,
    ],
    ['an expired channel boost', [boost(3, channelBoostUserId(general), '2026-01-01T11:00:00Z')], 1],
  ])('%s', (_name, boosts, expected) => {
    expect(activeBoostMultiplier(boosts, member)).toBe(expected);
  });

  it('ignores channel boosts for a message without a channel', () => {
    const { channelId: _c, ...noChannel } = member;
    expect(activeBoostMultiplier([boost(3, channelBoostUserId(general))], noChannel)).toBe(1);
  });

  it('reads a channel target', () => {
    expect(boostTarget('-channel:42')).toEqual({ kind: 'channel', channelId: '42' });
  });
});
