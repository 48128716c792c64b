import {
  CONFIG_TOO_DEEP_MESSAGE,
  errorResponses,
  MALFORMED_TEXT_MESSAGE,
  NUL_TEXT_MESSAGE,
  type RouteName,
  routes,
} from '@spacecadet/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, storedState, USERS } from './harness.ts';
import { fitsSchema, type JsonSchema } from './json-schema-fit.ts';
import { SAMPLE_BODIES, sampleRequest, seedEditedRows } from './samples.ts';

let h: Harness;
let ada: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  await seedEditedRows(h, ada);
  const doc = (await h.app.inject({ url: '/api/docs/json' })).json<OpenApiDoc>();
  operations = doc.paths;
  components = doc.components?.schemas ?? {};
});
afterAll(async () => {
  await h?.close();
});

type OpenApiDoc = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>
  >;
  components?: { schemas?: Record<string, JsonSchema> };
};
let operations: OpenApiDoc['paths'];
let components: Record<string, JsonSchema>;

/** The body schema the OpenAPI document publishes for a route. */
function bodySchema(name: RouteName): JsonSchema | undefined {
  const def = routes[name];
  const operation = operations[def.path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[def.method.toLowerCase()];
  return operation?.requestBody?.content['application/json']?.schema;
}

/**
 * 400s a body that fits the published schema may still get, all documented: an id that is not
 * the guild's own or a channel the bot lacks a permission in (`guildRefs`), and the setup or the
 * clock (a boost expiring in the past) not allowing it yet, and a Linked Roles code Discord did
 * not issue (or that expired).
 */
const DATA_DEPENDENT_400 = /of this server|permission|in the past|first|Discord refused this link/i;
/** The free-form config's rules for what it nests, which its schema states in its description. */
const NESTED_CONFIG_400 = [NUL_TEXT_MESSAGE, MALFORMED_TEXT_MESSAGE, CONFIG_TOO_DEEP_MESSAGE];
/**
 * A role menu's rules across fields, which its fields' descriptions state: a label for buttons
 * and select options, an emoji for reactions, max_roles from 1 to the options for limit.
 */
const ROLE_MENU_STATED_400 = /: a label is required|: an emoji is required|^max_roles: a limit menu/;
const ROLE_MENU_ROUTES: readonly RouteName[] = ['createRoleMenu', 'updateRoleMenu'];
/**
 * A question's rules across fields, which its fields' descriptions state: a title that is not
 * blank, 1 to 25 options, labels required, at most 50 characters and unique, no role, option id
 * or channel twice, an emoji as one emoji or <:name:id>.
 */
const QUESTION_STATED_400 =
  /^title: a question needs a title|: a title is at most|: a question needs at least one option|: at most \d+ options|: a label is (required|at most)|has the same label|already gives this role|is listed twice|: emoji must be one emoji/;
const QUESTION_ROUTES: readonly RouteName[] = ['createPersonalityQuestion', 'updatePersonalityQuestion'];

const snapshot = () => storedState(h);

/** Logout (here and everywhere) and the member's erase are left out: they take no body and end the session the other routes use. */
const WRITE_ROUTES = (Object.keys(routes) as RouteName[]).filter(
  (name) =>
    routes[name].method !== 'GET' &&
    routes[name].auth !== 'public' &&
    name !== 'logout' &&
    name !== 'logoutEverywhere' &&
    name !== 'eraseMemberData',
);

/**
 * One character, weighted towards what the contract refuses: any code point (astral ones are
 * two UTF-16 units), an unpaired surrogate half, NUL, or plain ASCII.
 */
const anyUnit = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 0x10ffff }).map((code) => String.fromCodePoint(code)) },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
);
const anyText = fc.string({ unit: anyUnit, maxLength: 30 });

/** Numbers around every bound: int4, safe integers, doubles, negatives. */
const anyNumber = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 53, 1e21, -1, 0, 0.5) },
  fc.integer(),
  fc.integer({ min: -(2 ** 31) - 2, max: 2 ** 31 + 2 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-(2 ** 53), -1e21, 1e308, -1e308, -0),
);

const anyScalar = fc.oneof(
  anyText,
  anyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.stringMatching(/^\d{1,22}$/),
  fc.constantFrom(
    '',
    ' ',
    'basic',
    'shades',
    '300000000000000021',
    '2030-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '1969-12-31T23:59:59Z',
    '9999-12-31T23:59:59-12:00',
  ),
);

/** Objects and arrays nested around the config cap (32) and far beyond it. */
function nest(levels: number, inner: unknown): unknown {
  let value = inner;
  for (let i = levels; i > 0; i--) value = i % 2 === 1 ? { k: value } : [value];
  return value;
}
const anyNested = fc
  .tuple(fc.integer({ min: 28, max: 40 }), anyScalar)
  .map(([levels, inner]) => nest(levels, inner));

const anyValue = fc.oneof(
  { weight: 4, arbitrary: anyScalar },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2, stringUnit: anyUnit }) },
  { weight: 1, arbitrary: anyNested },
);

/** JSON text nested far deeper than any parser frame budget would like, under the body limit. */
const deepJsonText = fc
  .tuple(fc.integer({ min: 33, max: 60_000 }), fc.constantFrom('[', '{"k":'))
  .map(([levels, open]) => {
    const close = open === '[' ? ']' : '}';
    return `${open.repeat(levels)}${open === '[' ? '' : '1'}${close.repeat(levels)}`;
  });

type Body = { raw: string } | { json: unknown };

/** Every path to a leaf (or an empty container) of a JSON value. */
function leafPaths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [path];
  const entries = Object.entries(value);
  if (entries.length === 0) return [path];
  return entries.flatMap(([key, child]) =>
    leafPaths(child, [...path, Array.isArray(value) ? Number(key) : key]),
  );
}

/** A copy of `value` with the leaf at `path` replaced (path [] replaces the whole value). */
function replaceAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(head)] = replaceAt(copy[Number(head)], rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  copy[head] = replaceAt(copy[head], rest, replacement);
  return copy;
}

/** The route's valid sample body with one field, however deep, made hostile. */
function mutatedSamples(name: RouteName): fc.Arbitrary<Body> {
  const sample = SAMPLE_BODIES[name] ?? {};
  return fc
    .tuple(fc.constantFrom(...leafPaths(sample)), anyValue)
    .map(([path, value]): Body => ({ json: replaceAt(sample, path, value) }));
}

/**
 * Bodies near the route's shape (its own keys, hostile values), far from it (any JSON, raw text
 * of any units) and deeply nested, at the top level or under one of the route's keys.
 */
function bodies(name: RouteName): fc.Arbitrary<Body> {
  const keys = [...Object.keys(SAMPLE_BODIES[name] ?? {}), 'extra'];
  const shaped = fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 4 });
  return fc.oneof(
    { weight: 4, arbitrary: mutatedSamples(name) },
    { weight: 2, arbitrary: shaped.map((json): Body => ({ json })) },
    {
      weight: 1,
      arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: anyUnit }).map((json): Body => ({ json })),
    },
    { weight: 1, arbitrary: anyNested.map((json): Body => ({ json })) },
    { weight: 1, arbitrary: anyText.map((raw): Body => ({ raw })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), deepJsonText, fc.boolean())
        .map(([key, deep, top]): Body => ({ raw: top ? deep : `{${JSON.stringify(key)}:${deep}}` })),
    },
  );
}

/** The outcome every request must have: 2xx or 4xx, and a 4xx in the one error body. */
function expectCleanAnswer(response: { statusCode: number; body: string; json(): unknown }, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(500);
  expect(response.statusCode, what).toBeGreaterThanOrEqual(200);
  if (response.statusCode >= 400) {
    expect(response.json(), what).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  }
}

/** Every status the API answers must be one the route table (and so OpenAPI) documents. */
function expectDocumented(name: RouteName, status: number, what: string) {
  const def = routes[name];
  const documented = [...Object.keys(def.responses), ...Object.keys(errorResponses(def))].map(Number);
  expect(documented, `${what} answered ${status}, which ${name} does not document`).toContain(status);
}

describe('random bodies at every write route', () => {
  it('covers every write route of the table', () => {
    expect(WRITE_ROUTES.length).toBeGreaterThan(25);
  });

  it.each(WRITE_ROUTES)('%s answers only 2xx/4xx and a rejected body changes nothing', async (name) => {
    const { method, url } = sampleRequest(name, GUILDS.station);
    // The route table's method: another would only ever reach the not-found handler.
    expect(method).toBe(routes[name].method);
    await fc.assert(
      fc.asyncProperty(bodies(name), async (body) => {
        const before = await snapshot();
        const response = await h.app.inject({
          method,
          url,
          headers: { authorization: ada, 'content-type': 'application/json' },
          payload: 'raw' in body ? body.raw : JSON.stringify(body.json),
        });
        expectCleanAnswer(response, name);
        expectDocumented(name, response.statusCode, name);
        const schema = bodySchema(name);
        if (response.statusCode === 400 && 'json' in body && schema) {
          const { message } = response.json<{ message: string }>();
          const fits = fitsSchema(schema, body.json, components);
          const stated =
            (name === 'putConfig' && NESTED_CONFIG_400.includes(message)) ||
            (ROLE_MENU_ROUTES.includes(name) && ROLE_MENU_STATED_400.test(message)) ||
            (QUESTION_ROUTES.includes(name) && QUESTION_STATED_400.test(message));
          expect(
            fits && !DATA_DEPENDENT_400.test(message) && !stated,
            `${name} refused ${JSON.stringify(body.json)} that fits its OpenAPI schema: ${message}`,
          ).toBe(false);
        }
        // The session stays valid throughout, so a rejection is about the body, never auth.
        expect([401, 403]).not.toContain(response.statusCode);
        if (response.statusCode >= 400) expect(await snapshot()).toBe(before);
      }),
      { numRuns: 25 },
    );
  });
});

/** Path segments as sent on the wire: percent-encoded text of any units, ids of any size, junk. */
const anySegment = fc.oneof(
  // encodeURIComponent throws on unpaired surrogates; their UTF-8 form is among the constants.
  anyText.map((text) => encodeURIComponent(text.replace(/\p{Cs}/gu, '\ufffd'))),
  anyNumber.map((n) => encodeURIComponent(String(n))),
  fc.stringMatching(/^\d{1,25}$/),
  fc.constantFrom(
    GUILDS.station,
    '1',
    '2147483647',
    '2147483648',
    '-1',
    '0',
    '1e3',
    '1.5',
    'zodiac',
    'color-roles.generate.300000000000000001',
    '..',
    '%00',
    '%ZZ',
    '%ED%A0%80',
    '%C0%80',
    '1'.repeat(150),
  ),
);

const PARAM_ROUTES = (Object.keys(routes) as RouteName[]).filter((name) => routes[name].path.includes(':'));

describe('random path parameters at every route with parameters', () => {
  it('never answer 5xx, in the route table method, and a rejected request changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PARAM_ROUTES),
        // Mostly the user's own guild, so the other segments get past authorization.
        fc.oneof({ weight: 3, arbitrary: fc.constant(GUILDS.station) }, anySegment),
        fc.dictionary(fc.constantFrom('roleId', 'boostId', 'question_type', 'jobId'), anySegment),
        async (name, guildId, segments) => {
          const def = routes[name];
          const values: Record<string, string> = { guildId, ...segments };
          const url = def.path.replace(/:([A-Za-z_]+)/g, (_, param: string) => values[param] ?? '1');
          const body = SAMPLE_BODIES[name];
          const before = def.method === 'GET' ? '' : await snapshot();
          const response = await h.app.inject({
            method: def.method,
            url,
            headers: { authorization: ada, 'content-type': 'application/json' },
            ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
          });
          expectCleanAnswer(response, `${def.method} ${url}`);
          // A path the router does not match is the not-found handler's, not the route's.
          const unrouted =
            response.statusCode === 404 &&
            response.json<{ message?: string }>().message?.startsWith('No route ') === true;
          if (!unrouted) {
            expectDocumented(name, response.statusCode, `${def.method} ${url}`);
          }
          expect(response.statusCode, `${def.method} ${url}`).not.toBe(405);
          if (response.statusCode >= 400 && def.method !== 'GET') expect(await snapshot()).toBe(before);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('random queries at the public read routes', () => {
  it('never answer 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          (s: string) => `/api/invite-url?guildId=${s}`,
          (s: string) => `/install?guildId=${s}`,
          (s: string) => `/install/callback?code=x&state=${s}`,
          (s: string) => `/install/callback?guild_id=${s}&error=${s}&permissions=${s}`,
        ),
        anySegment,
        async (path, value) => {
          const response = await h.app.inject({ method: 'GET', url: path(value) });
          expect(response.statusCode, `${path(value)}: ${response.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 100 },
    );
  });
});
