import { describe, expect, it } from 'vitest';
import { emptyRow, entriesFromRows, listsFromJson, validateReactionRoles } from './reaction-roles-form.ts';

const row = (emoji: string, role_id: string) => ({ ...emptyRow(), emoji, role_id });

describe('validateReactionRoles', () => {
  it('checks both lists and numbers rows from 1', () => {
    const problems = validateReactionRoles({
      color_roles: [row('🔴', '123456'), row('', '123456')],
      personality_roles: [row('🎮', '  ')],
    });
    expect(problems).toEqual([
      { list: 'color_roles', row: 2, message: 'Row 2: emoji and role_id required' },
      { list: 'personality_roles', row: 1, message: 'Row 1: emoji and role_id required' },
    ]);
  });

  it('accepts complete rows', () => {
    expect(validateReactionRoles({ color_roles: [row('🔴', '1')], personality_roles: [] })).toEqual([]);
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
