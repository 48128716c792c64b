import { z } from 'zod';

/**
 * Field helpers the leveling request bodies share: one message per number field, and a strict
 * object's message for keys it does not know.
 */

/** A number field's one message for every way it can be wrong (type, range, whole). */
export const numberField = (message: string) => z.number({ error: message });

/** A strict object's message for a key it does not know (zod's own names the key in its words). */
export const unknownKeys =
  (fallback: string) =>
  (issue: { code?: string; keys?: readonly string[] }): string =>
    issue.code === 'unrecognized_keys' && issue.keys
      ? `${issue.keys.join(', ')} ${issue.keys.length === 1 ? 'is not a field' : 'are not fields'} of this request`
      : fallback;
