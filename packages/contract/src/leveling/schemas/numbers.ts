import { z } from 'zod';
import { numberField, unknownKeys } from './fields.ts';

/**
 * The admin's own numbers: the XP curve (a quadratic or a table), XP decay for the inactive,
 * voice XP's limits and the rank card's accent color.
 */

/** The default curve: level L to L+1 takes 5·L² + 50·L + 100 XP (as MEE6). */
export const DEFAULT_CURVE_COEFFICIENTS = { a: 5, b: 50, c: 100 } as const;
/** The largest coefficient and the largest step a table may hold. */
export const CURVE_COEFFICIENT_MAX = 100_000;
export const CURVE_STEP_MAX = 10_000_000;
/** A table lists the XP of levels 0→1, 1→2, …; levels past it take its last step. */
export const CURVE_TABLE_MAX = 100;
/** How many levels the dashboard previews for a curve (levels 1–50). */
export const CURVE_PREVIEW_LEVELS = 50;

const coefficient = (name: string) =>
  numberField(`${name} must be a whole number from 0 to ${CURVE_COEFFICIENT_MAX}`)
    .int(`${name} must be a whole number from 0 to ${CURVE_COEFFICIENT_MAX}`)
    .min(0, `${name} must be a whole number from 0 to ${CURVE_COEFFICIENT_MAX}`)
    .max(CURVE_COEFFICIENT_MAX, `${name} must be a whole number from 0 to ${CURVE_COEFFICIENT_MAX}`);

const CURVE_MESSAGE =
  'level_curve must be { kind: "quadratic", a, b, c } or { kind: "table", xp: [XP of each level] }';
const CURVE_C_MESSAGE = 'c must be at least 1: every level takes some XP';
const STEP_MESSAGE = `Each level in the table takes a whole number of XP from 1 to ${CURVE_STEP_MAX}`;

export const QuadraticCurve = z.strictObject(
  {
    kind: z.literal('quadratic', { error: CURVE_MESSAGE }),
    a: coefficient('a'),
    b: coefficient('b'),
    c: coefficient('c').min(1, CURVE_C_MESSAGE),
  },
  { error: unknownKeys(CURVE_MESSAGE) },
);

export const TableCurve = z.strictObject(
  {
    kind: z.literal('table', { error: CURVE_MESSAGE }),
    xp: z
      .array(
        numberField(STEP_MESSAGE).int(STEP_MESSAGE).min(1, STEP_MESSAGE).max(CURVE_STEP_MAX, STEP_MESSAGE),
        {
          error: 'xp must be a list of the XP each level takes',
        },
      )
      .min(1, 'The table needs the XP of at least one level')
      .max(
        CURVE_TABLE_MAX,
        `The table lists at most ${CURVE_TABLE_MAX} levels; later ones take the last step`,
      ),
  },
  { error: unknownKeys(CURVE_MESSAGE) },
);

/**
 * The XP from level L to L+1: `a·L² + b·L + c`, or the table's entry L (its last one past
 * its end). Changing it recomputes every member's level.
 */
export const LevelCurve = z
  .discriminatedUnion('kind', [QuadraticCurve, TableCurve], { error: CURVE_MESSAGE })
  .meta({ id: 'LevelCurve' });
export type LevelCurve = z.infer<typeof LevelCurve>;

export const DEFAULT_LEVEL_CURVE: LevelCurve = Object.freeze({
  kind: 'quadratic',
  ...DEFAULT_CURVE_COEFFICIENTS,
}) as LevelCurve;

export const DECAY_PERCENT_MAX = 100;
export const DECAY_INACTIVE_DAYS_MAX = 365;
const DECAY_MESSAGE =
  'xp_decay must be null (off) or { percent_per_week, after_inactive_days, below_level_floor? }';
const PERCENT_MESSAGE = `percent_per_week must be a number above 0 and at most ${DECAY_PERCENT_MAX}`;
const DAYS_MESSAGE = `after_inactive_days must be a whole number from 1 to ${DECAY_INACTIVE_DAYS_MAX}`;

/**
 * XP decay: a member inactive `after_inactive_days` loses `percent_per_week` of their XP each
 * week, never below their current level's floor unless `below_level_floor`.
 */
export const XpDecay = z
  .strictObject(
    {
      percent_per_week: numberField(PERCENT_MESSAGE)
        .gt(0, PERCENT_MESSAGE)
        .max(DECAY_PERCENT_MAX, PERCENT_MESSAGE),
      after_inactive_days: numberField(DAYS_MESSAGE)
        .int(DAYS_MESSAGE)
        .min(1, DAYS_MESSAGE)
        .max(DECAY_INACTIVE_DAYS_MAX, DAYS_MESSAGE),
      below_level_floor: z.boolean({ error: 'below_level_floor must be true or false' }).default(false),
    },
    { error: unknownKeys(DECAY_MESSAGE) },
  )
  .meta({ id: 'XpDecay' });
export type XpDecay = z.infer<typeof XpDecay>;

/** Voice XP: the most per minute, and how many members (bots aside) a channel needs at most. */
export const VOICE_XP_PER_MINUTE_MAX = 1000;
export const VOICE_MIN_MEMBERS_DEFAULT = 2;
export const VOICE_MIN_MEMBERS_MAX = 25;

/** A rank card accent: `#rrggbb`. */
export const RANK_CARD_ACCENT_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const RankCardAccent = z
  .string({ error: 'The accent must be a color like #5865F2' })
  .regex(RANK_CARD_ACCENT_PATTERN, 'The accent must be a color like #5865F2');
/** The largest rank card background (PNG or JPEG). */
export const RANK_CARD_BACKGROUND_MAX_BYTES = 1024 * 1024;

/** Seasons may end by themselves every N months (null: only when an admin ends one). */
export const SEASON_MONTHS_MAX = 12;
