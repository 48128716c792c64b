import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CONFIG_TOO_DEEP_MESSAGE,
  CreateBoostBody,
  CreateLevelingRoleBody,
  CreateRoleBoostBody,
  ExchangeBody,
  INT4_MAX,
  JobParams,
  MALFORMED_TEXT_MESSAGE,
  NUL_TEXT_MESSAGE,
  PutConfigBody,
  PutReactionRolesBody,
  QuestionParams,
  routes,
  SERIAL_ID_MESSAGE,
  SerialId,
  SerialIdParam,
  UpdateLevelingRoleBody,
  unstorableTextReason,
  wholeNumberPattern,
} from '../src/index.ts';

const guildId = '300000000000000001';

function firstMessage(result: { success: boolean; error?: { issues: Array<{ message: string }> } }) {
  return result.success ? null : (result.error?.issues[0]?.message ?? null);
}

describe('whole number patterns', () => {
  it.each([
    [1, INT4_MAX, ['1', '9', '10', '999999999', '1999999999', '2147483639', '2147483647', '0002147483647']],
    [0, 100, ['0', '000', '1', '99', '100', '0100']],
    [1, 100, ['1', '10', '99', '100']],
  ] as const)('from %i to %i match exactly that range', (min, max, inside) => {
    const pattern = wholeNumberPattern(min, max);
    for (const text of inside) expect(pattern.test(text), text).toBe(true);
    const outside = [
      String(max + 1),
      String(max * 10),
      '99999999999',
      '',
      ' 1',
      '+1',
      '1e2',
      '0x1',
      '1.0',
      '-1',
    ];
    if (min === 1) outside.push('0', '000');
    for (const text of outside) expect(pattern.test(text), text).toBe(false);
    for (let n = 0; n <= Math.min(max + 50, 3000); n++)
      expect(pattern.test(String(n)), String(n)).toBe(n >= min && n <= max);
  });
});

describe('serial ids', () => {
  it('accept 1 to int4 max and refuse the rest', () => {
    expect(SerialId.parse(1)).toBe(1);
    expect(SerialId.parse(INT4_MAX)).toBe(INT4_MAX);
    for (const bad of [0, -1, 1.5, INT4_MAX + 1, 1e21, Number.NaN, '1', null]) {
      expect(firstMessage(SerialId.safeParse(bad)), String(bad)).toBe(SERIAL_ID_MESSAGE);
    }
  });

  it('are coerced from path segments with the same bounds', () => {
    expect(SerialIdParam.parse('42')).toBe(42);
    expect(SerialIdParam.parse(String(INT4_MAX))).toBe(INT4_MAX);
    for (const bad of ['2147483648', '99999999999', '0', '-3', '1.5', 'abc', '']) {
      expect(firstMessage(SerialIdParam.safeParse(bad)), bad).toBe(SERIAL_ID_MESSAGE);
    }
  });

  it('take only ASCII digits from a path segment, as Number() would not', () => {
    expect(SerialIdParam.parse('0042')).toBe(42);
    for (const bad of [
      '0xF423F',
      '9.99999e5',
      '1e3',
      ' 42',
      '42 ',
      '\t42',
      '+42',
      '4_2',
      '٤٢',
      '42n',
      '0b101',
    ]) {
      expect(firstMessage(SerialIdParam.safeParse(bad)), bad).toBe(SERIAL_ID_MESSAGE);
    }
  });

  it('guard every int4 id the route table takes', () => {
    const tooBig = String(INT4_MAX + 1);
    expect(firstMessage(routes.updateLevelingRole.params.safeParse({ guildId, roleId: tooBig }))).toBe(
      SERIAL_ID_MESSAGE,
    );
    expect(firstMessage(routes.deleteLevelingRole.params.safeParse({ guildId, roleId: tooBig }))).toBe(
      SERIAL_ID_MESSAGE,
    );
    expect(firstMessage(routes.deleteBoost.params.safeParse({ guildId, boostId: tooBig }))).toBe(
      SERIAL_ID_MESSAGE,
    );
    expect(
      firstMessage(routes.expandColorGroup.body.safeParse({ group_id: INT4_MAX + 1, is_expanded: true })),
    ).toBe(SERIAL_ID_MESSAGE);
  });
});

describe('storable text', () => {
  it('finds NUL and unpaired surrogates, not surrogate pairs', () => {
    expect(unstorableTextReason('plain 🚀 text')).toBeNull();
    expect(unstorableTextReason('a\u0000b')).toBe(NUL_TEXT_MESSAGE);
    expect(unstorableTextReason('a\ud800')).toBe(MALFORMED_TEXT_MESSAGE);
    expect(unstorableTextReason('\udc00a')).toBe(MALFORMED_TEXT_MESSAGE);
    expect(unstorableTextReason('\ude80\ud83d')).toBe(MALFORMED_TEXT_MESSAGE);
  });

  it.each(['a\u0000b', 'a\ud800'])('is required of every free-text field (%j)', (bad) => {
    const reason = unstorableTextReason(bad);
    const row = { emoji: bad, role_id: '300000000000000021' };
    const results = [
      ExchangeBody.safeParse({ code: bad, code_verifier: 'v'.repeat(43) }),
      ExchangeBody.safeParse({ code: 'abc', code_verifier: `${bad}${'v'.repeat(43)}` }),
      PutReactionRolesBody.safeParse({ color_roles: [row], personality_roles: [] }),
      PutReactionRolesBody.safeParse({
        color_roles: [],
        personality_roles: [{ emoji: '🎮', role_id: '300000000000000021', label: bad }],
      }),
      CreateLevelingRoleBody.safeParse({ role_name: bad }),
      UpdateLevelingRoleBody.safeParse({ role_name: bad }),
      QuestionParams.safeParse({ guildId, question_type: bad }),
      JobParams.safeParse({ jobId: bad }),
    ];
    for (const result of results) expect(firstMessage(result)).toBe(reason);
  });
});

describe('raw config body', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = levels; i > 0; i--) value = i % 2 === 1 ? { a: value } : [value];
    return value;
  };

  it('keeps its existing rules', () => {
    expect(PutConfigBody.safeParse([1]).success).toBe(false);
    expect(firstMessage(PutConfigBody.safeParse({ color_roles_mode: 'neon' }))).toBe(
      'color_roles_mode must be basic or shades',
    );
    expect(PutConfigBody.parse({ color_roles_mode: 'basic', x: [1, 'two', null] })).toEqual({
      color_roles_mode: 'basic',
      x: [1, 'two', null],
    });
  });

  it('nests objects and arrays at most 32 deep', () => {
    expect(PutConfigBody.safeParse(nested(32)).success).toBe(true);
    expect(firstMessage(PutConfigBody.safeParse(nested(33)))).toBe(CONFIG_TOO_DEEP_MESSAGE);
    const deep = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(firstMessage(PutConfigBody.safeParse(deep))).toBe(CONFIG_TOO_DEEP_MESSAGE);
  });

  it('refuses NUL and unpaired surrogates in any key or string, naming where', () => {
    const value = PutConfigBody.safeParse({ list: ['ok', { 'k\u0000': 1 }] });
    expect(value.error?.issues[0]).toMatchObject({ message: NUL_TEXT_MESSAGE, path: ['list', 1, 'k\u0000'] });
    const text = PutConfigBody.safeParse({ a: { b: ['x\ud800'] } });
    expect(text.error?.issues[0]).toMatchObject({ message: MALFORMED_TEXT_MESSAGE, path: ['a', 'b', 0] });
    expect(PutConfigBody.safeParse({ a: '🚀' }).success).toBe(true);
  });
});

describe('boost expiry', () => {
  const RANGE = 'expires_at must fall between the years 1970 and 9999 (UTC)';

  it.each([CreateBoostBody, CreateRoleBoostBody])('stays within 1970-9999 in UTC', (schema) => {
    const base = schema === CreateRoleBoostBody ? { role_id: '300000000000000021' } : {};
    const at = (expires_at: string | null) => schema.safeParse({ ...base, expires_at });
    for (const ok of [null, '1970-01-01T00:00:00Z', '2030-06-01T12:00:00+02:00', '9999-12-31T23:59:59Z']) {
      expect(at(ok).success, String(ok)).toBe(true);
    }
    for (const bad of [
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '1969-12-31T23:59:59Z',
      '1970-01-01T00:30:00+01:00',
      '9999-12-31T23:59:59-12:00',
    ]) {
      expect(firstMessage(at(bad)), bad).toBe(RANGE);
    }
    expect(firstMessage(at('tomorrow'))).toBe(
      'expires_at must be an ISO timestamp, or null for a boost that never expires',
    );
  });
});

describe('boost expiry: the UTC year range is in the published pattern', () => {
  // A property run found `9999-12-31T23:59:59-12:00` (year 10000 in UTC) refused by the API
  // while its OpenAPI schema took it.
  const expiry = (value: string) => CreateBoostBody.safeParse({ expires_at: value }).success;
  const pattern = () => {
    const schema = JSON.stringify(z.toJSONSchema(CreateBoostBody, { io: 'input', unrepresentable: 'any' }));
    return schema.includes('9999-12-31T');
  };
  it.each([
    ['9999-12-31T23:59:59-12:00', false],
    ['1970-01-01T00:30:00+01:00', false],
    ['1969-12-31T23:00:00Z', false],
    ['9999-12-31T23:59:59Z', true],
    ['9999-12-31T23:59:59+05:00', true],
    ['1970-01-01T00:30:00Z', true],
    ['2030-05-01T10:00:00-07:00', true],
  ])('%s fits: %s', (value, fits) => {
    expect(expiry(value)).toBe(fits);
  });
  it('shows the range as a pattern in the JSON schema', () => {
    expect(pattern()).toBe(true);
  });
});
