import { z } from 'zod';

/**
 * Input primitives the request schemas build on, so that nothing Postgres would refuse (an id
 * beyond int4, text it cannot store, JSON too deep to parse) gets past validation as a 500.
 */

/** The largest value of a Postgres `integer` (`serial`) column. */
export const INT4_MAX = 2_147_483_647;
export const SERIAL_ID_MESSAGE = `Expected an id (a whole number from 1 to ${INT4_MAX})`;

/**
 * ASCII digits (leading zeros allowed) naming a whole number from `min` (0 or 1) to `max`, so
 * that a path or query string's bounds show in OpenAPI as its pattern.
 */
export function wholeNumberPattern(min: 0 | 1, max: number): RegExp {
  const digits = String(max);
  const alternatives: string[] = [];
  if (digits.length > 1) alternatives.push(`[1-9][0-9]{0,${digits.length - 2}}`);
  for (let i = 0; i < digits.length; i++) {
    const lowest = i === 0 ? 1 : 0;
    const digit = Number(digits[i]);
    const rest = digits.length - i - 1;
    if (digit > lowest)
      alternatives.push(`${digits.slice(0, i)}[${lowest}-${digit - 1}]${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  alternatives.push(digits);
  if (min === 0) alternatives.push('0');
  return new RegExp(`^0*(?:${alternatives.join('|')})$`);
}

/** An id of a `serial` row in a JSON body. */
export const SerialId = z
  .number({ error: SERIAL_ID_MESSAGE })
  .int(SERIAL_ID_MESSAGE)
  .min(1, SERIAL_ID_MESSAGE)
  .max(INT4_MAX, SERIAL_ID_MESSAGE);

/**
 * An id of a `serial` row in a path segment: ASCII digits only. `Number()` (and so z.coerce)
 * would also take ` 42`, `0x2A`, `4.2e1` or `+42`; the path must name the row plainly. A number is
 * taken as is, for typed clients that fill the path from a row's numeric id.
 */
export const SerialIdParam = z
  .union([SerialId, z.string().regex(wholeNumberPattern(1, INT4_MAX), SERIAL_ID_MESSAGE).transform(Number)], {
    error: SERIAL_ID_MESSAGE,
  })
  .pipe(SerialId);

export const NUL_TEXT_MESSAGE = 'Text cannot contain NUL characters';
export const MALFORMED_TEXT_MESSAGE = 'Text must be valid Unicode (no unpaired surrogate characters)';

/** In a `u` regex a surrogate pair is one code point, so this matches only unpaired halves. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why Postgres could not store this string (NUL, unpaired UTF-16 surrogate), or null. */
export function unstorableTextReason(value: string): string | null {
  if (value.includes('\u0000')) return NUL_TEXT_MESSAGE;
  if (LONE_SURROGATE.test(value)) return MALFORMED_TEXT_MESSAGE;
  return null;
}

/**
 * A string Postgres can store in text or jsonb: well-formed UTF-16 without NUL. Patterns, not a
 * refinement, so that OpenAPI shows both rules (a surrogate pair is allowed, a lone half is not).
 */
export function storableText(params?: Parameters<typeof z.string>[0]) {
  return (
    z
      .string(params)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what it excludes.
      .regex(/^[^\u0000]*$/, NUL_TEXT_MESSAGE)
      .regex(/^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/, MALFORMED_TEXT_MESSAGE)
  );
}
export const Text = storableText();

/** Text that is not only whitespace (what `.trim().min(1)` asks), as a pattern OpenAPI shows. */
export const NOT_BLANK = /\S/;

/** How deeply the raw config may nest: objects and arrays, the top-level object being level 1. */
export const CONFIG_MAX_DEPTH = 32;
export const CONFIG_TOO_DEEP_MESSAGE = `Config is nested too deeply (at most ${CONFIG_MAX_DEPTH} levels)`;

/**
 * Checks a free-form JSON value without recursion: every key and string value must be storable
 * text, and objects and arrays nest at most `CONFIG_MAX_DEPTH` deep. Reports the first problem.
 */
export function checkJsonTree(value: unknown, ctx: z.RefinementCtx): void {
  const stack: Array<{ value: unknown; path: PropertyKey[]; depth: number }> = [
    { value, path: [], depth: 0 },
  ];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { path, depth } = item;
    if (typeof item.value === 'string') {
      const reason = unstorableTextReason(item.value);
      if (reason === null) continue;
      ctx.addIssue({ code: 'custom', path, message: reason });
      return;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (depth >= CONFIG_MAX_DEPTH) {
      ctx.addIssue({ code: 'custom', path, message: CONFIG_TOO_DEEP_MESSAGE });
      return;
    }
    const entries: Array<[PropertyKey, unknown]> = Array.isArray(item.value)
      ? item.value.map((child, index) => [index, child])
      : Object.entries(item.value);
    for (const [key, child] of entries) {
      const reason = typeof key === 'string' ? unstorableTextReason(key) : null;
      if (reason !== null) {
        ctx.addIssue({ code: 'custom', path: [...path, key], message: reason });
        return;
      }
      stack.push({ value: child, path: [...path, key], depth: depth + 1 });
    }
  }
}

export const TIMESTAMP_YEAR_MIN = 1970;
export const TIMESTAMP_YEAR_MAX = 9999;

/** Whether an ISO timestamp falls (in UTC) within the years the API stores. */
export function inTimestampRange(iso: string): boolean {
  const year = new Date(iso).getUTCFullYear();
  return year >= TIMESTAMP_YEAR_MIN && year <= TIMESTAMP_YEAR_MAX;
}
