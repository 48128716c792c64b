import { describe, expect, it } from 'vitest';
import { collectGuildRefs, foreignRefMessage, refFieldWords, routes } from '../src/index.ts';

describe('guild refs in lists of lists', () => {
  const spec = routes.createPersonalityQuestion.guildRefs;

  it("collects every option's role and each of its channels, named by row and item", () => {
    const body = {
      title: 'Planets',
      options: [
        { label: 'Mars', role_id: '11', channel_ids: ['21', ' 22 '] },
        { label: 'Venus', channel_ids: [] },
        { label: 'Saturn', role_id: null, channel_ids: ['23'] },
      ],
    };
    expect(collectGuildRefs(body, spec)).toEqual([
      { field: 'options[0].role_id', kind: 'role', id: '11' },
      { field: 'options[0].channel_ids[0]', kind: 'any_channel', id: '21' },
      { field: 'options[0].channel_ids[1]', kind: 'any_channel', id: '22' },
      { field: 'options[2].channel_ids[0]', kind: 'any_channel', id: '23' },
    ]);
  });

  it('names an id of a list in a row in words', () => {
    expect(refFieldWords('options[2].channel_ids[0]')).toBe('options row 3: channel_ids item 1');
    expect(foreignRefMessage({ field: 'options[2].channel_ids[0]', kind: 'any_channel', id: '23' })).toBe(
      'options row 3: channel_ids item 1 is not a channel of this server',
    );
  });
});
