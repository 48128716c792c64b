import { MAX_REACTION_LIST_ROWS } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import {
  emojiProblems,
  emptyRow,
  entriesFromRows,
  listsFromJson,
  panelLocationText,
  postableLists,
  validateReactionRoles,
} from './reaction-roles-form.ts';

const ROLE = '300000000000000021';
/** A different role for each row: a role twice in a list is refused (tested below). */
const roleNo = (n: number) => `3100000000000000${String(n).padStart(2, '0')}`;
const row = (emoji: string, role_id: string) => ({ ...emptyRow(), emoji, role_id });

describe('validateReactionRoles', () => {
  it('checks both lists and numbers rows from 1, naming the field', () => {
    const problems = validateReactionRoles({
      color_roles: [row('🔴', ROLE), row('', roleNo(2))],
      personality_roles: [row('🎮', '  ')],
    });
    expect(problems).toEqual([
      { list: 'color_roles', row: 2, field: 'emoji', message: 'Row 2: emoji and role_id required' },
      { list: 'personality_roles', row: 1, field: 'role_id', message: 'Row 1: emoji and role_id required' },
    ]);
  });

  it('says a blank role is required, not that another row already gives it', () => {
    const problems = validateReactionRoles({
      color_roles: [row('🔴', ''), row('🔵', ' ')],
      personality_roles: [],
    });
    expect(problems.map((p) => p.message)).toEqual([
      'Row 1: emoji and role_id required',
      'Row 2: emoji and role_id required',
    ]);
  });

  it('accepts complete rows', () => {
    expect(validateReactionRoles({ color_roles: [row('🔴', ROLE)], personality_roles: [] })).toEqual([]);
  });

  it("refuses what the API refuses, in the contract's words", () => {
    const problems = validateReactionRoles({
      color_roles: [
        row('🔴', ROLE),
        row('red', roleNo(2)),
        row('🔴', '12'),
        row('<:blob:300000000000000099>', roleNo(4)),
        row('🟢', ROLE),
      ],
      personality_roles: Array.from({ length: MAX_REACTION_LIST_ROWS + 1 }, (_, i) => row('🎮', roleNo(i))),
    });
    expect(problems.map((p) => [p.list, p.row, p.field, p.message])).toEqual([
      [
        'color_roles',
        2,
        'emoji',
        'Row 2: emoji must be one emoji, or a custom emoji of this server as <:name:id>',
      ],
      ['color_roles', 3, 'role_id', 'Row 3: role_id must be a Discord role id'],
      ['color_roles', 3, 'emoji', 'Row 3: 🔴 is already used by row 1; each emoji can stand for one role'],
      ['color_roles', 5, 'role_id', 'Row 5: row 1 already gives this role; each role can have one row'],
      ['personality_roles', 0, null, `At most ${MAX_REACTION_LIST_ROWS} personality roles`],
    ]);
  });

  it('shows emoji problems live only where an emoji was typed', () => {
    const lists = {
      color_roles: [row('🔴', ROLE), row('', ''), row(' 🔴 ', '')],
      personality_roles: [row('nope', ROLE)],
    };
    expect([...emojiProblems(validateReactionRoles(lists), lists)]).toEqual([
      ['color_roles:3', 'Row 3: 🔴 is already used by row 1; each emoji can stand for one role'],
      [
        'personality_roles:1',
        'Row 1: emoji must be one emoji, or a custom emoji of this server as <:name:id>',
      ],
    ]);
  });
});

describe('entriesFromRows / listsFromJson', () => {
  it('trims and drops empty optional fields', () => {
    expect(entriesFromRows([{ emoji: ' 🔴 ', role_id: ' 42 ', label: '', description: ' Red ' }])).toEqual([
      { emoji: '🔴', role_id: '42', description: 'Red' },
    ]);
  });

  it('reads the raw JSON and refuses what is not two lists', () => {
    expect(listsFromJson('{"color_roles":[{"emoji":"🔴","role_id":"1"}]}')?.color_roles).toEqual([
      row('🔴', '1'),
    ]);
    expect(listsFromJson('{"color_roles": 3}')).toBeNull();
    expect(listsFromJson('{oops')).toBeNull();
  });
});

describe('panels', () => {
  const channels = [
    { id: '300000000000000012', name: 'roles' },
    { id: '300000000000000013', name: 'lobby' },
  ];
  it('says where a panel is posted, and where it moves', () => {
    expect(panelLocationText(null, null, channels)).toBe('Not posted yet');
    const panel = { channel_id: '300000000000000012', message_ids: ['300000000000000501'] };
    expect(panelLocationText(panel, '300000000000000012', channels)).toBe('Posted in #roles (1 message)');
    expect(
      panelLocationText({ ...panel, message_ids: ['300000000000000501', '300000000000000502'] }, null, []),
    ).toBe('Posted in channel 300000000000000012 (2 messages)');
    expect(panelLocationText(panel, '300000000000000013', channels)).toBe(
      'Posted in #roles (1 message); the next Post / Update moves it to #lobby',
    );
  });

  it('posts only the saved lists with rows and a channel', () => {
    const state = {
      color_roles: [{ emoji: '🔴', role_id: ROLE }],
      personality_roles: [{ emoji: '🎮', role_id: ROLE }],
      channels: { color_roles: '300000000000000012', personality_roles: null },
      panels: { color_roles: null, personality_roles: null },
      updated_at: null,
      updated_by: null,
    };
    expect(postableLists(state)).toEqual(['color_roles']);
    expect(postableLists({ ...state, color_roles: [] })).toEqual([]);
  });
});
