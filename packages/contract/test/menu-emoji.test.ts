import { describe, expect, it } from 'vitest';
import {
  emojiMarkdown,
  menuEmojiKey,
  parseMenuEmoji,
  reactionRouteEmoji,
} from '../src/reaction-roles/emoji.ts';

describe('menu emojis', () => {
  it('takes one unicode emoji, ZWJ sequences, flags and keycaps included', () => {
    for (const text of ['👍', '❤️', '👨‍👩‍👧', '🇫🇷', '1️⃣', ' 🎮 ']) {
      expect(parseMenuEmoji(text), text).toEqual({ id: null, name: text.trim() });
    }
  });

  it('takes a custom emoji as chat writes it or as the reaction routes do', () => {
    const rocket = { id: '300000000000000081', name: 'rocket', animated: false };
    expect(parseMenuEmoji('<:rocket:300000000000000081>')).toEqual(rocket);
    expect(parseMenuEmoji('rocket:300000000000000081')).toEqual(rocket);
    expect(parseMenuEmoji('<a:party:300000000000000082>')).toEqual({
      id: '300000000000000082',
      name: 'party',
      animated: true,
    });
    expect(reactionRouteEmoji(rocket)).toBe('rocket:300000000000000081');
    expect(emojiMarkdown(rocket)).toBe('<:rocket:300000000000000081>');
    expect(menuEmojiKey(rocket)).toBe('300000000000000081');
  });

  it('refuses text, two emojis, and a custom emoji without a real id', () => {
    for (const text of ['ab', '👍👍', ':)', '#', '', '<:rocket:12>', 'rocket']) {
      expect(parseMenuEmoji(text), text).toBeNull();
    }
  });

  it('takes an emoji with or without its variation selector as the same one, sent as typed', () => {
    const plain = parseMenuEmoji('❤');
    const styled = parseMenuEmoji('❤️');
    expect(plain && styled && menuEmojiKey(plain)).toBe(styled && menuEmojiKey(styled));
    expect(menuEmojiKey({ id: null, name: '\u2764\uFE0E' })).toBe(menuEmojiKey({ name: '\u2764' }));
    expect(styled && reactionRouteEmoji(styled)).toBe('❤️');
    expect(menuEmojiKey({ id: '300000000000000081', name: 'rocket' })).toBe('300000000000000081');
  });
});
