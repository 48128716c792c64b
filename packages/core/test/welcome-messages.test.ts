import { DEFAULT_GOODBYE_MESSAGE, DEFAULT_WELCOME_MESSAGE, WELCOME_MESSAGE_MAX } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { renderWelcomeMessage } from '../src/welcome-messages.ts';

const ada = { userId: '111111111111111111', username: 'Ada', answers: ['Night owl', 'Cats'] };
const bob = { userId: '222222222222222222', username: 'Bob', answers: ['Cats', 'Tea'] };
const values = { server: 'Space Cadets', memberCount: 1234 };

describe('renderWelcomeMessage', () => {
  it('fills every placeholder and pings only the member', () => {
    const message = renderWelcomeMessage(
      'welcome',
      'Hi {user} ({username}) @everyone, welcome to {server}, member #{member_count}! You picked {answers}. {other}',
      [ada],
      values,
    );
    expect(message.content).toBe(
      'Hi <@111111111111111111> (Ada) @everyone, welcome to Space Cadets, member #1,234! You picked Night owl and Cats. {other}',
    );
    expect(message.allowed_mentions).toEqual({ parse: [], users: [ada.userId] });
  });

  it('names every member of a burst once, with their answers merged', () => {
    const message = renderWelcomeMessage('welcome', '{user}: {username} ({answers})', [ada, bob], values);
    expect(message.content).toBe(
      '<@111111111111111111> and <@222222222222222222>: Ada and Bob (Night owl, Cats and Tea)',
    );
    expect(message.allowed_mentions.users).toEqual([ada.userId, bob.userId]);
  });

  it('falls back to the default text when the template is blank or renders blank', () => {
    const blank = renderWelcomeMessage('welcome', '   ', [ada], values);
    const onlyAnswers = renderWelcomeMessage('welcome', '{answers}', [{ ...ada, answers: [] }], values);
    const expected = renderWelcomeMessage('welcome', DEFAULT_WELCOME_MESSAGE, [ada], values).content;
    expect(blank.content).toBe(expected);
    expect(onlyAnswers.content).toBe(expected);
    expect(expected).toContain('<@111111111111111111>');
  });

  it('pings nobody in a goodbye', () => {
    const message = renderWelcomeMessage('goodbye', DEFAULT_GOODBYE_MESSAGE, [ada], values);
    expect(message.content).toContain('Ada');
    expect(message.allowed_mentions).toEqual({ parse: [], users: [] });
  });

  it("cuts to Discord's length without splitting a character", () => {
    const long = renderWelcomeMessage('welcome', `${'a'.repeat(WELCOME_MESSAGE_MAX - 2)}😀😀`, [ada], values);
    expect(long.content.length).toBeLessThanOrEqual(WELCOME_MESSAGE_MAX);
    expect(long.content.endsWith('…')).toBe(true);
    expect(long.content).not.toMatch(/[\uD800-\uDBFF]…$/);
  });
});
