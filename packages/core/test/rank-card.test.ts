import { describe, expect, it } from 'vitest';
import {
  accentColor,
  cardAccent,
  compactNumber,
  DEFAULT_ACCENT_COLOR,
  parseAccentHex,
  rankCardAltText,
  rankCardModel,
  sampleRankCardModel,
} from '../src/rank-card.ts';

describe('accentColor', () => {
  it.each([
    [[], DEFAULT_ACCENT_COLOR],
    [[{ color: 0, position: 5 }], DEFAULT_ACCENT_COLOR],
    [
      [
        { color: 0xff0000, position: 1 },
        { color: 0, position: 9 },
      ],
      0xff0000,
    ],
    [
      [
        { color: 0xff0000, position: 1 },
        { color: 0x00ff00, position: 3 },
      ],
      0x00ff00,
    ],
  ])('picks the highest colored role of %j', (roles, expected) => {
    expect(accentColor(roles)).toBe(expected);
  });
});

describe('compactNumber', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1000, '1K'],
    [1250, '1.2K'],
    [34_560, '34.5K'],
    [999_999, '999K'],
    [1_200_000, '1.2M'],
    [-5, '0'],
  ])('%d reads %s', (value, text) => {
    expect(compactNumber(value)).toBe(text);
  });
});

describe('rankCardModel', () => {
  it('gives level, progress into it and labels (level 1 starts at 100 XP, level 2 at 255)', () => {
    const model = rankCardModel({ username: 'nia', rank: 3, totalXp: 177 });
    expect(model).toMatchObject({
      level: 1,
      xpIntoLevel: 77,
      xpForNext: 155,
      rankLabel: '#3',
      levelLabel: '1',
    });
    expect(model.progress).toBeCloseTo(77 / 155);
    expect(model.xpLabel).toBe('77 / 155 XP');
    expect(rankCardAltText(model)).toBe(
      'Rank card of nia: rank #3, level 1, 77 of 155 XP to level 2, 177 XP in total.',
    );
  });

  it('keeps the bar within 0..1', () => {
    expect(rankCardModel({ username: 'a', rank: 1, totalXp: 0 }).progress).toBe(0);
    expect(rankCardModel({ username: 'a', rank: 1, totalXp: 99 }).progress).toBeLessThan(1);
  });
});

describe('cardAccent', () => {
  const botRoles = [{ color: 0x12a4b6, position: 3 }];
  it("prefers the member's own accent, then the server's, then the bot's role color", () => {
    expect(cardAccent({ member: '#FF0080', server: '#00ff00', botRoles })).toBe(0xff0080);
    expect(cardAccent({ member: null, server: '#00ff00', botRoles })).toBe(0x00ff00);
    expect(cardAccent({ member: null, server: null, botRoles })).toBe(0x12a4b6);
    expect(cardAccent({ member: undefined, server: undefined, botRoles: [] })).toBe(DEFAULT_ACCENT_COLOR);
  });
  it('skips a stored value that is not #rrggbb', () => {
    expect(cardAccent({ member: 'red', server: '#0000ff', botRoles })).toBe(0x0000ff);
    expect(parseAccentHex('#12345')).toBeNull();
    expect(parseAccentHex('#abcdef')).toBe(0xabcdef);
  });
});

describe('sampleRankCardModel', () => {
  it('is the named member at rank #3, level 12, 40% into the level', () => {
    const model = sampleRankCardModel('ada');
    expect(model).toMatchObject({ username: 'ada', rank: 3, level: 12 });
    expect(model.progress).toBeCloseTo(0.4, 2);
    expect(rankCardAltText(model)).toMatch(/^Rank card of ada: rank #3, level 12, /);
  });
});
