import { connect } from 'node:net';
import {
  CONFIG_TOO_DEEP_MESSAGE,
  MALFORMED_TEXT_MESSAGE,
  NUL_TEXT_MESSAGE,
  SERIAL_ID_MESSAGE,
} from '@spacecadet/contract';
import { colorGroups, guildConfigs, levelingBoosts, levelingRoles, roleMenus } from '@spacecadet/db';
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toErrorAnswer } from '../src/plugins/errors.ts';
import { EXPIRY_IN_PAST_MESSAGE } from '../src/services/leveling/boosts.ts';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/** Inputs a code review found answering 500 (or storing something else than was sent). */

let h: Harness;
let ada: string;
let nia: string;
const station = `/api/guilds/${GUILDS.station}`;
const BOOST_RANGE = 'expires_at must fall between the years 1970 and 9999 (UTC)';

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  nia = await signIn(h, USERS.nia);
});
afterAll(async () => {
  await h?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Sends `payload` as raw JSON text, so escapes like \ud800 reach the parser as written. */
function send(method: Method, url: string, payload?: string, authorization = ada) {
  return h.app.inject({
    method,
    url,
    headers: { authorization, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function expectInvalid(response: Awaited<ReturnType<typeof send>>, message: string) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toMatchObject({ error: 'invalid_input', message });
}

async function stored() {
  const db = h.database.db;
  return Promise.all([
    db.select().from(guildConfigs).where(eq(guildConfigs.guildId, GUILDS.station)),
    db.select().from(roleMenus).where(eq(roleMenus.guildId, GUILDS.station)).orderBy(roleMenus.id),
    db.select().from(levelingRoles).where(eq(levelingRoles.guildId, GUILDS.station)),
    db.select().from(levelingBoosts).where(eq(levelingBoosts.guildId, GUILDS.station)),
    db.select().from(colorGroups),
  ]);
}

const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('integer ids beyond int4', () => {
  it('are a 400 in bodies and paths, never a 500', async () => {
    const before = await stored();
    for (const group_id of [2_147_483_648, 1e20, 0, -1, 1.5]) {
      await expectInvalid(
        await send('PUT', '/api/color-groups/expand', JSON.stringify({ group_id, is_expanded: true })),
        SERIAL_ID_MESSAGE,
      );
    }
    // Number() would read the last five as 999999, 999999, 1, 42 and 1000.
    const notDigits = ['0xF423F', '9.99999e5', '%201', '%2B42', '1e3'];
    for (const id of ['2147483648', '99999999999', '1e10', '-5', '0', 'abc', ...notDigits]) {
      await expectInvalid(
        await send('PUT', `${station}/leveling/roles/${id}`, '{"role_name":"x"}'),
        SERIAL_ID_MESSAGE,
      );
      await expectInvalid(await send('DELETE', `${station}/leveling/roles/${id}`), SERIAL_ID_MESSAGE);
      await expectInvalid(await send('DELETE', `${station}/leveling/boosts/${id}`), SERIAL_ID_MESSAGE);
    }
    expect(await stored()).toEqual(before);
  });

  it('the largest int4 id is valid and simply not found', async () => {
    expect((await send('DELETE', `${station}/leveling/boosts/2147483647`)).statusCode).toBe(404);
    expect((await send('DELETE', `${station}/leveling/roles/2147483647`)).statusCode).toBe(404);
    const group = await send('PUT', '/api/color-groups/expand', '{"group_id":2147483647,"is_expanded":true}');
    expect(group.statusCode).toBe(404);
  });
});

describe('text Postgres cannot store', () => {
  it('refuses unpaired surrogates and NUL anywhere in the config, keys included', async () => {
    const before = await stored();
    await expectInvalid(await send('PUT', `${station}/config`, '{"a":"\\ud800"}'), MALFORMED_TEXT_MESSAGE);
    await expectInvalid(await send('PUT', `${station}/config`, '{"a\\udc00":1}'), MALFORMED_TEXT_MESSAGE);
    await expectInvalid(
      await send('PUT', `${station}/config`, '{"list":[1,{"deep":["ok","x\\ud83d"]}]}'),
      MALFORMED_TEXT_MESSAGE,
    );
    await expectInvalid(await send('PUT', `${station}/config`, '{"\\u0000":1}'), NUL_TEXT_MESSAGE);
    expect(await stored()).toEqual(before);
    // A well-formed pair (an emoji) is fine.
    expect((await send('PUT', `${station}/config`, '{"a":"\\ud83d\\ude80"}')).statusCode).toBe(200);
  });

  it('refuses them in reaction roles, role names and path parameters instead of mangling them', async () => {
    const before = await stored();
    await expectInvalid(
      await send(
        'PUT',
        `${station}/reaction-roles`,
        '{"color_roles":[{"emoji":"\\ud800","role_id":"300000000000000021"}],"personality_roles":[]}',
      ),
      MALFORMED_TEXT_MESSAGE,
    );
    await expectInvalid(
      await send('POST', `${station}/leveling/roles`, '{"role_name":"Elder\\ud800"}'),
      MALFORMED_TEXT_MESSAGE,
    );
    await expectInvalid(
      await send('POST', `${station}/leveling/roles`, '{"role_name":"a\\u0000b"}'),
      NUL_TEXT_MESSAGE,
    );
    expect(await stored()).toEqual(before);
  });
});

describe('deeply nested config', () => {
  it('accepts 32 levels and refuses 33 or far more with a 400', async () => {
    expect((await send('PUT', `${station}/config`, nestedObjects(32))).statusCode).toBe(200);
    const before = await stored();
    await expectInvalid(await send('PUT', `${station}/config`, nestedObjects(33)), CONFIG_TOO_DEEP_MESSAGE);
    for (const levels of [1_000, 20_000, 100_000]) {
      await expectInvalid(
        await send('PUT', `${station}/config`, `{"a":${nestedArrays(levels)}}`),
        CONFIG_TOO_DEEP_MESSAGE,
      );
    }
    expect(await stored()).toEqual(before);
  });
});

describe('boost expiry', () => {
  it.each([
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '1969-12-31T23:59:59Z',
    '1970-01-01T00:30:00+01:00',
    '9999-12-31T23:59:59-12:00',
  ])('refuses %s', async (expires_at) => {
    const before = await stored();
    const body = JSON.stringify({ expires_at });
    await expectInvalid(await send('POST', `${station}/leveling/boosts`, body), BOOST_RANGE);
    const roleBoost = JSON.stringify({ role_id: '300000000000000021', expires_at });
    await expectInvalid(await send('POST', `${station}/leveling/role-boosts`, roleBoost), BOOST_RANGE);
    expect(await stored()).toEqual(before);
  });

  it('stores the upper bound exactly as sent; the lower one is in the past', async () => {
    const upper = '9999-12-31T23:59:59.000Z';
    const response = await send('POST', `${station}/leveling/boosts`, JSON.stringify({ expires_at: upper }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().expires_at).toBe(upper);
    const lower = JSON.stringify({ expires_at: '1970-01-01T00:00:00.000Z' });
    await expectInvalid(await send('POST', `${station}/leveling/boosts`, lower), EXPIRY_IN_PAST_MESSAGE);
  });
});

describe("Fastify's own client errors", () => {
  it.each([
    ['a path parameter over the router limit', 'GET', `/api/guilds/${'1'.repeat(150)}/config`, 400],
    ['a job id over the router limit', 'GET', `/api/jobs/${'a'.repeat(150)}`, 400],
    ['a malformed percent escape', 'GET', `${station}/con%fig`, 400],
    [
      'an escape that decodes to no character',
      'PUT',
      `${station}/personality-roles/questions/%ED%A0%80/toggle`,
      400,
    ],
  ] as const)('%s answers {error, message}', async (_, method, url, status) => {
    const response = await send(method, url, method === 'PUT' ? '{"enabled":true}' : undefined);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(response.json()).sort()).toEqual(['error', 'message']);
    expect(response.json().error).toBe('invalid_input');
    expect(response.body).not.toContain('FST_ERR');
  });

  it('a body that does not match its Content-Length', async () => {
    const response = await h.app.inject({
      method: 'PUT',
      url: `${station}/config`,
      headers: { authorization: ada, 'content-type': 'application/json', 'content-length': '3' },
      payload: '{"a":1}',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json()).sort()).toEqual(['error', 'message']);
  });
});

describe("requests Node's HTTP parser refuses", () => {
  /** Writes raw bytes to the listening app and reads the whole answer. */
  async function rawExchange(port: number, request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        answer += chunk;
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
      });
    });
  }

  it('answer in the one error body', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening on a port');
    const cases: Array<[string, number, string]> = [
      ['NOT AN HTTP REQUEST\r\n\r\n', 400, 'invalid_input'],
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'payload_too_large'],
    ];
    for (const [request, status, error] of cases) {
      const answer = await rawExchange(address.port, request);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body)).toEqual({ error, message: expect.any(String) });
    }
  });
});

describe('the group route decides authorization before existence', () => {
  it('answers 403 to a user who manages no guild, whatever the group or body', async () => {
    const [group] = await h.database.db
      .insert(colorGroups)
      .values({ guildId: GUILDS.station, name: 'Hidden' })
      .returning();
    for (const body of [
      { group_id: group?.id, is_expanded: true },
      { group_id: 999_999, is_expanded: true },
      { group_id: 2_147_483_648, is_expanded: 'yes' },
    ]) {
      const response = await send('PUT', '/api/color-groups/expand', JSON.stringify(body), nia);
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().error).toBe('forbidden');
    }
  });
});

describe('Postgres refusing client input is a 400, as a safety net behind validation', () => {
  async function postgresError(query: SQL): Promise<unknown> {
    try {
      await h.database.db.execute(query);
    } catch (error) {
      return error;
    }
    throw new Error('the query succeeded');
  }

  it.each([
    ['22003 numeric out of range', sql`select 2147483648::int4`],
    ['22P02 invalid text representation', sql`select 'x'::int4`],
    ['22P02 unpaired surrogate in JSON', sql`select '"\\ud800"'::jsonb`],
    ['54001 too deeply nested', sql`select (repeat('[', 100000) || repeat(']', 100000))::jsonb`],
    ['22021 NUL in text', sql`select convert_from('\\x610062'::bytea, 'UTF8')`],
    ['22P05 NUL in jsonb', sql`select '"\\u0000"'::jsonb`],
  ])('%s', async (_, query) => {
    const answer = toErrorAnswer(await postgresError(query));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'invalid_input', message: expect.any(String) });
  });

  it('other Postgres errors stay a 500', async () => {
    const answer = toErrorAnswer(await postgresError(sql`select 1/0`));
    expect(answer.status).toBe(500);
  });
});
