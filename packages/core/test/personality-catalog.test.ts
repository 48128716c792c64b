import { PERSONALITY_QUESTION_TYPES } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import {
  PERSONALITY_CATALOG,
  parsePersonalityCustomId,
  personalityComponents,
  personalityEmbed,
  personalityQuestion,
} from '../src/personality-catalog.ts';

describe('PERSONALITY_CATALOG', () => {
  it('covers the 10 categories in order', () => {
    expect(PERSONALITY_CATALOG.map((q) => q.questionType)).toEqual([...PERSONALITY_QUESTION_TYPES]);
  });

  it.each(PERSONALITY_CATALOG.map((q) => [q.questionType, q] as const))(
    '%s has a title, description and unique options',
    (_type, question) => {
      expect(question.title.length).toBeGreaterThan(0);
      expect(question.description.length).toBeGreaterThan(0);
      expect(question.options.length).toBeGreaterThanOrEqual(2);
      const labels = question.options.map((o) => o.label);
      expect(new Set(labels).size).toBe(labels.length);
    },
  );

  it.each([
    ['zodiac', 12, false],
    ['mbti', 16, false],
    ['pronouns', 5, true],
    ['hobbies', 12, true],
  ])('%s has %i options (multi-select %s)', (type, count, multi) => {
    const question = personalityQuestion(type);
    expect(question?.options).toHaveLength(count);
    expect(question?.isMultiSelect).toBe(multi);
  });

  it('unknown types are not in the catalog', () => {
    expect(personalityQuestion('favourite_food')).toBeUndefined();
  });
});

describe('personalityComponents', () => {
  it.each(PERSONALITY_CATALOG.map((q) => [q.questionType, q] as const))(
    '%s fits Discord limits as buttons',
    (_type, question) => {
      const rows = personalityComponents(question);
      expect(rows.length).toBeLessThanOrEqual(5);
      for (const row of rows) {
        expect(row.components.length).toBeLessThanOrEqual(5);
        for (const component of row.components) {
          expect(component.type).toBe(2);
          expect(component.custom_id.length).toBeLessThanOrEqual(100);
        }
      }
      expect(rows.flatMap((row) => row.components)).toHaveLength(question.options.length);
    },
  );

  it('mbti (16 options) uses buttons in rows of 5', () => {
    const mbti = personalityQuestion('mbti');
    if (!mbti) throw new Error('mbti missing');
    expect(personalityComponents(mbti).map((row) => row.components.length)).toEqual([5, 5, 5, 1]);
  });

  it.each([
    [26, true, 25],
    [30, false, 1],
  ])('%i options become one select menu (multi %s, max values %i)', (count, isMultiSelect, maxValues) => {
    const options = Array.from({ length: count }, (_, i) => ({ label: `Option ${i}`, emoji: null }));
    const rows = personalityComponents({ questionType: 'hobbies', title: 'Hobbies', isMultiSelect, options });
    expect(rows).toHaveLength(1);
    const [select] = rows[0]?.components ?? [];
    expect(select?.type).toBe(3);
    if (select?.type !== 3) return;
    expect(select.options).toHaveLength(25);
    expect(select.max_values).toBe(maxValues);
    expect(select.custom_id).toBe('personality:hobbies');
  });

  it.each([
    ['personality:zodiac:3', { kind: 'button', questionType: 'zodiac', optionIndex: 3 }],
    ['personality:music_genres', { kind: 'select', questionType: 'music_genres' }],
    ['personality:Zodiac:1', null],
    ['color:pick:Red', null],
  ])('parsePersonalityCustomId(%s)', (customId, expected) => {
    expect(parsePersonalityCustomId(customId)).toEqual(expected);
  });

  it('round-trips button ids', () => {
    const zodiac = personalityQuestion('zodiac');
    if (!zodiac) throw new Error('zodiac missing');
    const ids = personalityComponents(zodiac).flatMap((row) => row.components.map((c) => c.custom_id));
    expect(ids.map((id) => parsePersonalityCustomId(id))).toEqual(
      zodiac.options.map((_, optionIndex) => ({ kind: 'button', questionType: 'zodiac', optionIndex })),
    );
  });

  it('the embed explains single vs multi choice', () => {
    expect(personalityEmbed({ title: 'T', description: 'D', isMultiSelect: true }).description).toMatch(
      /many/,
    );
    expect(personalityEmbed({ title: 'T', description: 'D', isMultiSelect: false }).description).toMatch(
      /one/,
    );
  });
});
