import { MAX_REACTION_LIST_ROWS, type RouteName, routePath, routes } from '@spacecadet/contract';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';
import type { JsonSchema } from './json-schema-fit.ts';
import { EXTRA_PARAMS, seedEditedRows } from './samples.ts';

/**
 * The OpenAPI document is the contract clients build requests from: a request that fits its
 * schemas must never be refused with 400 for a reason the schemas do not show. Requests are
 * built from each route's published schemas at their boundaries (min and max lengths and
 * numbers, empty optional fields, non-ASCII text); ids that must name something of the guild
 * (channels, roles, members, rows) are the fixture's real ones.
 */

type Schema = JsonSchema & {
  /** Every pattern of the schema and its `allOf` parts (zod lists a second one there). */
  patterns?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
};

type Operation = {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
};

const { roles: ROLES, emojis: EMOJIS } = SANDBOX_IDS;

/**
 * Reaction rows: an emoji is one emoji (or a custom emoji of the guild), each emoji and each role
 * once per list, as the fields' descriptions say; JSON Schema cannot state that. Each row gets
 * its own emoji, from the station's custom emojis and unicode ones, and its own role of the
 * station (made in beforeAll, below the bot's role, so the bot may give it).
 */
const ROW_EMOJIS = [
  `<:rocket:${EMOJIS.stationRocket}>`,
  `<a:party_parrot:${EMOJIS.stationParrot}>`,
  ...[...'🍎🍐🍊🍋🍌🍉🍇🍓🫐🍈🍒🍑🥭🍍🥥🥝🍅🍆🥑🥦🥬🥒🌶🫑🌽🥕🫒🧄🧅🥔🍠🫚🥐🥯🍞🥖🥨🧀🥚🍳🧈🥞🧇'],
];
const ROW_ROLES: string[] = [];
function withRowEmojis(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const lists = Object.entries(body).map(([list, rows]) => [
    list,
    Array.isArray(rows)
      ? rows.map((row, index) =>
          typeof row === 'object' && row
            ? { ...row, emoji: ROW_EMOJIS[index], role_id: ROW_ROLES[index] }
            : row,
        )
      : rows,
  ]);
  return Object.fromEntries(lists);
}

/**
 * Palette saves: each color name once, each shade name once (any case), and ids that name the
 * palette's rows as they are now, as the fields' descriptions say; JSON Schema cannot state
 * either. The first colour and shade keep the boundary values; the others get names of their
 * own, and every row is a new one (the palette changes with each save, so no id stays real).
 * Shades lie deeper than the generator fills objects, so each gets a name and hex.
 */
function withPaletteNames(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('colors' in body) || !Array.isArray(body.colors))
    return body;
  const row = (value: unknown, name: string | null, idKey: string) => {
    if (typeof value !== 'object' || value === null) return value;
    const { [idKey]: _id, ...rest } = value as Record<string, unknown>;
    return name === null ? rest : { ...rest, name };
  };
  return {
    ...body,
    colors: body.colors.map((color: unknown, i: number) => {
      const renamed = row(color, i === 0 ? null : `Color ${i}`, 'color_id');
      if (typeof renamed !== 'object' || renamed === null || !('shades' in renamed)) return renamed;
      const shades = Array.isArray(renamed.shades)
        ? renamed.shades.map((shade: unknown, j: number) => {
            const named = row(shade, i === 0 && j === 0 ? null : `Shade ${i}-${j}`, 'shade_id');
            // Shades sit deeper than the generator fills objects: complete them.
            return { name: `Shade ${i}-${j}`, hex: '#123456', ...(named as object) };
          })
        : renamed.shades;
      return { ...renamed, shades };
    }),
  };
}

/**
 * Role menus: each option its own role and emoji (as reaction rows), a label for a button or
 * select option, and max_roles from 1 to the options for a limit menu, as the fields'
 * descriptions say; JSON Schema cannot state rules across fields.
 */
function withMenuRules(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('options' in body) || !Array.isArray(body.options))
    return body;
  const menu = body as Record<string, unknown> & { options: unknown[] };
  const options = menu.options.map((option, index) => {
    if (typeof option !== 'object' || option === null) return option;
    const label = (option as { label?: unknown }).label;
    const labelled = menu.style === 'reactions' || (typeof label === 'string' && /\S/.test(label));
    return {
      ...option,
      role_id: ROW_ROLES[index],
      emoji: ROW_EMOJIS[index],
      ...(labelled ? {} : { label: `Option ${index + 1}` }),
    };
  });
  const maxRoles = menu.max_roles;
  const fits = typeof maxRoles === 'number' && maxRoles >= 1 && maxRoles <= options.length;
  return { ...menu, options, ...(menu.mode === 'limit' && !fits ? { max_roles: 1 } : {}) };
}

/** Values for fields that must name something of the guild (or a row the test created). */
const REAL_IDS: Record<string, unknown> = {
  guildId: GUILDS.station,
  guild_id: GUILDS.station,
  channel_id: CHANNELS.roles,
  announcement_channel: CHANNELS.roles,
  daily_overview_channel: CHANNELS.roles,
  no_xp_channels: CHANNELS.roles,
  no_xp_roles: ROLES.stationCrew,
  userId: USERS.nia,
  role_id: ROLES.stationCrew,
  user_id: USERS.ada,
  group_id: 1,
  roleId: 1,
  boostId: 1,
  question_type: 'zodiac',
  menuId: EXTRA_PARAMS.menuId,
  // No such entry (404): an undo here would change what the other routes' requests read.
  entryId: 999_999,
  // Only read from members, never given: a role above the bot will do.
  required_role_id: ROLES.stationModerators,
};

/**
 * Routes left out: logout and the member's erase end the session the others use; the delete routes remove the rows
 * the others edit (a reward role, a boost, the role menu; reset undoes the personality setup, so
 * setting onboarding then answers its documented 400 "Initialize personality roles first"); the
 * install callback only redirects.
 */
const SKIPPED = new Set<RouteName>([
  'logout',
  'eraseMemberData',
  'deleteLevelingRole',
  'deleteBoost',
  'deleteRoleMenu',
  'resetPersonalityRoles',
  'installCallback',
]);

let h: Harness;
let ada: string;
let components: Record<string, Schema> = {};
let operations: Record<string, Record<string, Operation>>;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  await seedEditedRows(h, ada);
  for (let i = 0; i < MAX_REACTION_LIST_ROWS; i++) {
    const response = await fetch(`${h.sandbox.apiBase}/v10/guilds/${GUILDS.station}/roles`, {
      method: 'POST',
      headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Row role ${i + 1}` }),
    });
    expect(response.status).toBe(200);
    ROW_ROLES.push(((await response.json()) as { id: string }).id);
  }
  const doc = (await h.app.inject({ url: '/api/docs/json' })).json<{
    paths: typeof operations;
    components?: { schemas?: Record<string, Schema> };
  }>();
  operations = doc.paths;
  components = doc.components?.schemas ?? {};
});
afterAll(async () => {
  await h?.close();
});

function resolve(schema: Schema): Schema {
  let current = schema;
  while (current.$ref) current = components[current.$ref.split('/').at(-1) ?? ''] ?? {};
  const parts = [current, ...(current.allOf ?? []).map(resolve)];
  const patterns = parts.flatMap((part) => part.patterns ?? (part.pattern ? [part.pattern] : []));
  return Object.assign({}, ...parts.slice(1), current, { allOf: undefined, patterns });
}

function types(schema: Schema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Texts that fit `pattern` (if any) at the schema's length bounds, ASCII and not. */
function strings(schema: Schema, field: string): unknown[] {
  if (field in REAL_IDS) return [REAL_IDS[field]];
  if (schema.enum) return schema.enum;
  if (schema.format === 'date-time') return ['2030-01-01T00:00:00Z', '2999-12-31T23:59:59.999+02:00'];
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 300, 5000);
  const texts: string[] = [];
  for (const length of new Set([Math.max(min, 1), min, max])) {
    for (const unit of ['a', 'é', 'ß', '🚀', '\u0000', '\t', ' ']) texts.push(unit.repeat(length));
    texts.push(`${'a'.repeat(Math.max(length - 1, 0))}\u0000`.slice(-length || undefined));
  }
  const patterns = (schema.patterns ?? []).map((pattern) => new RegExp(pattern, 'u'));
  if (patterns.length === 0) return texts;
  // JSON Schema counts lengths in code points (an astral character is one, not two UTF-16 units).
  const fits = (text: string) =>
    [...text].length >= min && [...text].length <= max && patterns.every((pattern) => pattern.test(text));
  const digits = ['1', '9'.repeat(max), '12345', '00000', '0', '100', '101', '2147483647', '2147483648'];
  return [...texts, ...digits].filter(fits);
}

function numbers(schema: Schema, integer: boolean): unknown[] {
  const low =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const high =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  const values = [low ?? Number.MIN_SAFE_INTEGER, high ?? Number.MAX_SAFE_INTEGER, 0, 1];
  if (!integer) values.push(0.5, low === undefined ? -1e300 : low, high === undefined ? 1e300 : high);
  return [...new Set(values)].filter(
    (value) => (low === undefined || value >= low) && (high === undefined || value <= high),
  );
}

/** Boundary values of a schema; the first is the "typical" one used while varying other fields. */
function values(input: Schema, field: string, depth = 0): unknown[] {
  const schema = resolve(input);
  if (schema.const !== undefined) return [schema.const];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.flatMap((alternative) => values(alternative, field, depth));
  if (schema.enum) return schema.enum;
  const kinds = types(schema);
  const out: unknown[] = [];
  if (kinds.includes('string')) out.push(...strings(schema, field));
  if (kinds.includes('integer')) out.push(...(field in REAL_IDS ? [REAL_IDS[field]] : numbers(schema, true)));
  if (kinds.includes('number')) out.push(...numbers(schema, false));
  if (kinds.includes('boolean')) out.push(true, false);
  if (kinds.includes('object') || (kinds.length === 0 && schema.properties))
    out.push(...objects(schema, depth));
  if (kinds.includes('array')) out.push(...arrays(schema, field, depth));
  if (kinds.includes('null')) out.push(null);
  return out;
}

function arrays(schema: Schema, field: string, depth: number): unknown[] {
  if (!schema.items || depth > 3) return [[]];
  const items = values(schema.items, field, depth + 1);
  const min = schema.minItems ?? 0;
  const max = Math.min(schema.maxItems ?? 5, 50);
  const out: unknown[][] = [];
  for (const length of new Set([min, max])) {
    if (schema.uniqueItems) {
      const distinct = [...new Map(items.map((item) => [JSON.stringify(item), item])).values()];
      if (distinct.length >= length) out.push(distinct.slice(0, length));
    } else {
      for (const item of items) out.push(Array.from({ length }, () => item));
    }
  }
  return out;
}

/** A typical object, the same without optional fields, and one per boundary value of each field. */
function objects(schema: Schema, depth: number): Array<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  const typical: Record<string, unknown> = {};
  const variants: Record<string, unknown[]> = {};
  for (const [key, property] of properties) {
    variants[key] = depth > 3 ? [] : values(property, key, depth + 1);
    if (variants[key].length > 0) typical[key] = variants[key][0];
  }
  const required = new Set(schema.required ?? []);
  const bare = Object.fromEntries(Object.entries(typical).filter(([key]) => required.has(key)));
  const out = [typical, bare];
  for (const [key, list] of Object.entries(variants)) {
    for (const value of list.slice(1)) out.push({ ...typical, [key]: value });
  }
  return out;
}

interface Attempt {
  url: string;
  body?: unknown;
  /** A body that is not JSON (an image upload): its bytes and content type. */
  raw?: { payload: Buffer; type: string };
}

/** A real 1×1 PNG: what fits an image/png body. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function attempts(name: RouteName): Attempt[] {
  const def = routes[name];
  const operation = operations[def.path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[def.method.toLowerCase()];
  if (!operation) throw new Error(`${name} is not in the OpenAPI document`);
  const params = operation.parameters ?? [];
  const pathParams = Object.fromEntries(
    params
      .filter((param) => param.in === 'path')
      .map((param) => [param.name, values(param.schema, param.name)]),
  );
  const query = params.filter((param) => param.in === 'query');
  const typicalPath = Object.fromEntries(Object.entries(pathParams).map(([key, list]) => [key, list[0]]));
  const url = (path: Record<string, unknown>, search: Record<string, unknown>) => {
    const base = routePath(def, path as Record<string, string>);
    const qs = new URLSearchParams(
      Object.entries(search).map(([key, value]): [string, string] => [key, String(value)]),
    ).toString();
    return qs ? `${base}?${qs}` : base;
  };
  const typicalQuery = Object.fromEntries(
    query.filter((param) => param.required).map((param) => [param.name, values(param.schema, param.name)[0]]),
  );
  const out: Attempt[] = [];
  for (const [key, list] of Object.entries(pathParams)) {
    for (const value of list) out.push({ url: url({ ...typicalPath, [key]: value }, typicalQuery) });
  }
  for (const param of query) {
    for (const value of values(param.schema, param.name)) {
      out.push({ url: url(typicalPath, { ...typicalQuery, [param.name]: value }) });
    }
  }
  if (out.length === 0) out.push({ url: url(typicalPath, typicalQuery) });
  if (operation.requestBody?.content['image/png']) {
    return [
      { url: out[0]?.url ?? url(typicalPath, typicalQuery), raw: { payload: PNG_1X1, type: 'image/png' } },
    ];
  }
  const body = operation.requestBody?.content['application/json']?.schema;
  if (!body) return out;
  return values(body, '').map((value) => ({
    url: out[0]?.url ?? url(typicalPath, typicalQuery),
    body:
      name === 'putReactionRoles'
        ? withRowEmojis(value)
        : name === 'putColorPalette'
          ? withPaletteNames(value)
          : name === 'createRoleMenu' || name === 'updateRoleMenu'
            ? withMenuRules(value)
            : value,
  }));
}

// The preview routes are registered by the preview routes' branch (samples.ts).
const ROUTES = (Object.keys(routes) as RouteName[]).filter((name) => !SKIPPED.has(name));

describe('requests that fit the OpenAPI schemas', () => {
  it('are never refused with 400', async () => {
    const refused: string[] = [];
    let sent = 0;
    for (const name of ROUTES) {
      const def = routes[name];
      for (const attempt of attempts(name)) {
        sent++;
        const response = await h.app.inject({
          method: def.method,
          url: attempt.url,
          headers: { authorization: ada },
          ...(attempt.body === undefined ? {} : { payload: JSON.stringify(attempt.body) }),
          ...(attempt.body === undefined
            ? {}
            : { headers: { authorization: ada, 'content-type': 'application/json' } }),
          ...(attempt.raw
            ? {
                payload: attempt.raw.payload,
                headers: { authorization: ada, 'content-type': attempt.raw.type },
              }
            : {}),
        });
        // A server holds at most 25 menus: each one made is deleted again.
        if (name === 'createRoleMenu' && response.statusCode === 201) {
          const menuId = response.json<{ id: string }>().id;
          const deleted = await h.app.inject({
            method: 'DELETE',
            url: routePath(routes.deleteRoleMenu, { guildId: GUILDS.station, menuId }),
            headers: { authorization: ada },
          });
          expect(deleted.statusCode, deleted.body).toBe(204);
        }
        if (response.statusCode === 400) {
          refused.push(
            `${name} ${attempt.url} ${JSON.stringify(attempt.body)?.slice(0, 160)} -> ${response.body}`,
          );
        }
      }
    }
    expect(sent).toBeGreaterThan(200);
    expect(refused, `${refused.length} of ${sent} fitting requests refused:\n${refused.join('\n')}`).toEqual(
      [],
    );
  });
});
