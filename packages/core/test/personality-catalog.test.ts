import { PERSONALITY_QUESTION_TYPES } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { PERSONALITY_CATALOG, personalityQuestion } from '../src/personality-catalog.ts';
import {
  buildPersonalityMessage,
  PERSONALITY_CLEAR_LABEL,
  parsePersonalityCustomId,
  personalityComponents,
  personalityEmbed,
  personalityMessageSignature,
} from '../src/personality-panel.ts';

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
  const optionComponents = (rows: ReturnType<typeof personalityComponents>) => rows.slice(0, -1);

  it.each(PERSONALITY_CATALOG.map((q) => [q.questionType, q] as const))(
    '%s fits Discord limits as buttons, with a clear button in its own last row',
    (_type, question) => {
      const rows = personalityComponents(question);
      expect(rows.length).toBeLessThanOrEqual(5);
      for (const row of rows) {
        expect(row.components.length).toBeLessThanOrEqual(5);
        for (const component of row.components) {
          expect(component.type).toBe(2);
          expect(component.custom_id.length).toBeLessThanOrEqual(100);
          if (component.type === 2) expect(component.label.length).toBeLessThanOrEqual(80);
        }
      }
      expect(optionComponents(rows).flatMap((row) => row.components)).toHaveLength(question.options.length);
      const last = rows.at(-1)?.components ?? [];
      expect(last).toHaveLength(1);
      expect(last[0]).toMatchObject({
        custom_id: `personality:${question.questionType}:clear`,
        label: PERSONALITY_CLEAR_LABEL,
      });
    },
  );

  it('mbti (16 options) uses buttons in rows of 5', () => {
    const mbti = personalityQuestion('mbti');
    if (!mbti) throw new Error('mbti missing');
    expect(personalityComponents(mbti).map((row) => row.components.length)).toEqual([5, 5, 5, 1, 1]);
  });

  it('20 options are still buttons (4 full rows); 21 become a select', () => {
    const make = (count: number) =>
      personalityComponents({
        questionType: 'hobbies',
        title: 'Hobbies',
        isMultiSelect: true,
        options: Array.from({ length: count }, (_, i) => ({ label: `Option ${i}` })),
      });
    expect(make(20).map((row) => row.components[0]?.type)).toEqual([2, 2, 2, 2, 2]);
    expect(make(21).map((row) => row.components[0]?.type)).toEqual([3, 2]);
  });

  it.each([
    [21, true, 21, 21],
    [30, true, 25, 25],
    [30, false, 25, 1],
  ])(
    '%i options become one select menu (multi %s): %i options, max values %i',
    (count, isMultiSelect, shown, maxValues) => {
      const options = Array.from({ length: count }, (_, i) => ({ label: `Option ${i}`, emoji: null }));
      const rows = personalityComponents({
        questionType: 'hobbies',
        title: 'Hobbies',
        isMultiSelect,
        options,
      });
      expect(rows).toHaveLength(2);
      const [select] = rows[0]?.components ?? [];
      expect(select?.type).toBe(3);
      if (select?.type !== 3) return;
      expect(select.options).toHaveLength(shown);
      expect(select.min_values).toBe(0);
      expect(select.max_values).toBe(maxValues);
      expect(select.custom_id).toBe('personality:hobbies');
    },
  );

  it('cuts labels to Discord limits', () => {
    const long = 'x'.repeat(120);
    const [row] = personalityComponents({
      questionType: 'hobbies',
      title: 'Hobbies',
      isMultiSelect: true,
      options: [{ label: long }],
    });
    const [button] = row?.components ?? [];
    expect(button?.type === 2 && button.label.length).toBe(80);
  });

  it.each([
    ['personality:zodiac:o42', { kind: 'button', questionType: 'zodiac', option: { id: 42 } }],
    ['personality:q17:o9', { kind: 'button', questionType: 'q17', option: { id: 9 } }],
    ['personality:zodiac:3', { kind: 'button', questionType: 'zodiac', option: { index: 3 } }],
    ['personality:q17', { kind: 'select', questionType: 'q17' }],
    ['personality:zodiac:o', null],
    ['personality:music_genres', { kind: 'select', questionType: 'music_genres' }],
    ['personality:pronouns:clear', { kind: 'clear', questionType: 'pronouns' }],
    ['personality:Zodiac:1', null],
    ['personality:zodiac:wipe', null],
    ['color:pick:Red', null],
  ])('parsePersonalityCustomId(%s)', (customId, expected) => {
    expect(parsePersonalityCustomId(customId)).toEqual(expected);
  });

  it('round-trips button ids: stored options by id, a preview of unsaved ones by position', () => {
    const zodiac = personalityQuestion('zodiac');
    if (!zodiac) throw new Error('zodiac missing');
    const idsOf = (question: Parameters<typeof personalityComponents>[0]) =>
      optionComponents(personalityComponents(question)).flatMap((row) =>
        row.components.map((c) => c.custom_id),
      );
    const stored = {
      ...zodiac,
      options: zodiac.options.map((option, index) => ({ ...option, id: 100 + index })),
    };
    expect(idsOf(stored).map((id) => parsePersonalityCustomId(id))).toEqual(
      stored.options.map((option) => ({ kind: 'button', questionType: 'zodiac', option: { id: option.id } })),
    );
    expect(idsOf(zodiac).map((id) => parsePersonalityCustomId(id))).toEqual(
      zodiac.options.map((_, index) => ({ kind: 'button', questionType: 'zodiac', option: { index } })),
    );
  });

  it("gives a server's custom emoji by id, and leaves out text that is no emoji", () => {
    const [row] = personalityComponents({
      questionType: 'q3',
      title: 'Teams',
      isMultiSelect: false,
      options: [
        { id: 1, label: 'Red team', emoji: '<:redteam:123456789012345678>' },
        { id: 2, label: 'Blue team', emoji: 'blue' },
      ],
    });
    const [red, blue] = row?.components ?? [];
    expect(red?.type === 2 && red.emoji).toEqual({
      id: '123456789012345678',
      name: 'redteam',
      animated: false,
    });
    expect(blue?.type === 2 && blue.emoji).toBeUndefined();
    expect(red?.custom_id).toBe('personality:q3:o1');
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

describe('personalityMessageSignature', () => {
  const zodiac = personalityQuestion('zodiac');
  if (!zodiac) throw new Error('zodiac missing');
  const body = buildPersonalityMessage(zodiac);

  it("matches Discord's copy of the same message, whatever fields Discord adds", () => {
    const fromDiscord = {
      id: '1',
      content: '',
      embeds: body.embeds.map((embed) => ({ ...embed, type: 'rich' })),
      components: body.components.map((row) => ({
        ...row,
        id: 9,
        components: row.components.map((c) => ({ ...c, id: 3, disabled: false })),
      })),
    };
    expect(personalityMessageSignature(fromDiscord)).toBe(personalityMessageSignature(body));
  });

  it('differs when a label, the title or an option changes', () => {
    const renamed = buildPersonalityMessage({
      ...zodiac,
      options: zodiac.options.map((o, i) => (i === 0 ? { ...o, label: 'Ram' } : o)),
    });
    expect(personalityMessageSignature(renamed)).not.toBe(personalityMessageSignature(body));
    const retitled = buildPersonalityMessage({ ...zodiac, title: 'Star sign' });
    expect(personalityMessageSignature(retitled)).not.toBe(personalityMessageSignature(body));
    const fewer = buildPersonalityMessage({ ...zodiac, options: zodiac.options.slice(1) });
    expect(personalityMessageSignature(fewer)).not.toBe(personalityMessageSignature(body));
  });
});
