/**
 * The settings form's own numbers (issue 39): the XP range a message earns in, the level curve
 * (a formula or a table), XP decay and seasons — as typed, as sent, and what is wrong with them
 * before saving. The curve is checked with the contract's own schema and previewed with core's
 * functions, so the page, the API and the bot compute it one way.
 */
import {
  CURVE_PREVIEW_LEVELS,
  DEFAULT_CURVE_COEFFICIENTS,
  LevelCurve,
  type LevelingSettings,
  SEASON_MONTHS_MAX,
  XpDecay,
} from '@spacecadet/contract';
import { clampXpPerMessage, curvePreview, expectedMessageXp, sameCurve } from '@spacecadet/core';

export type CurveKind = LevelCurve['kind'];

/** The numbers as typed: text for each box, booleans for the switches. */
export interface NumbersForm {
  xp_min: string;
  xp_max: string;
  curve_kind: CurveKind;
  curve_a: string;
  curve_b: string;
  curve_c: string;
  /** The table's XP amounts, comma- or newline-separated. */
  curve_table: string;
  decay_on: boolean;
  decay_percent: string;
  decay_days: string;
  decay_below_floor: boolean;
  season_on: boolean;
  season_months: string;
  /** Whether members keep their reward roles when the schedule ends a season. */
  season_keep_rewards: boolean;
}

/** What a new decay or season starts at when switched on (the API has no stored value yet). */
const DECAY_START = { percent_per_week: 5, after_inactive_days: 30 } as const;
const SEASON_START_MONTHS = 3;

export function numbersToForm(settings: LevelingSettings): NumbersForm {
  const curve = settings.level_curve;
  const quadratic = curve.kind === 'quadratic' ? curve : DEFAULT_CURVE_COEFFICIENTS;
  const decay = settings.xp_decay;
  return {
    xp_min: String(settings.xp_min),
    xp_max: String(settings.xp_max),
    curve_kind: curve.kind,
    curve_a: String(quadratic.a),
    curve_b: String(quadratic.b),
    curve_c: String(quadratic.c),
    curve_table: curve.kind === 'table' ? curve.xp.join(', ') : '',
    decay_on: decay !== null,
    decay_percent: String(decay?.percent_per_week ?? DECAY_START.percent_per_week),
    decay_days: String(decay?.after_inactive_days ?? DECAY_START.after_inactive_days),
    decay_below_floor: decay?.below_level_floor ?? false,
    season_on: settings.season_months !== null,
    season_months: String(settings.season_months ?? SEASON_START_MONTHS),
    season_keep_rewards: settings.season_keep_rewards,
  };
}

/** The form's formula boxes back at the default curve (5·L² + 50·L + 100). */
export function defaultCurveFields(): Pick<NumbersForm, 'curve_kind' | 'curve_a' | 'curve_b' | 'curve_c'> {
  const { a, b, c } = DEFAULT_CURVE_COEFFICIENTS;
  return { curve_kind: 'quadratic', curve_a: String(a), curve_b: String(b), curve_c: String(c) };
}

/** A box's number, NaN for an empty box (the schema then refuses it with its own sentence). */
function boxNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** The table's amounts as typed: split on commas, semicolons, spaces and new lines. */
export function tableAmounts(text: string): number[] {
  return text
    .split(/[\s,;]+/)
    .filter((part) => part !== '')
    .map((part) => Number(part));
}

type Checked<T> = { ok: true; value: T } | { ok: false; issue: string };

function firstIssue(error: { issues: ReadonlyArray<{ message: string }> }): string {
  return error.issues[0]?.message ?? 'Not a valid value';
}

/** The curve being edited, or the sentence the API would refuse it with. */
export function editedCurve(form: NumbersForm): Checked<LevelCurve> {
  const candidate =
    form.curve_kind === 'table'
      ? { kind: 'table', xp: tableAmounts(form.curve_table) }
      : {
          kind: 'quadratic',
          a: boxNumber(form.curve_a),
          b: boxNumber(form.curve_b),
          c: boxNumber(form.curve_c),
        };
  const parsed = LevelCurve.safeParse(candidate);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issue: firstIssue(parsed.error) };
}

/** Levels 1–50 of a curve: the XP each takes and the total to reach it (core's `curvePreview`). */
export function previewRows(curve: LevelCurve) {
  return curvePreview(curve, CURVE_PREVIEW_LEVELS);
}

/** Whether the curve typed is not the stored one (saving it recomputes every member's level). */
export function curveChanged(form: NumbersForm, stored: LevelCurve): boolean {
  const edited = editedCurve(form);
  return edited.ok && !sameCurve(edited.value, stored);
}

function editedDecay(form: NumbersForm): Checked<XpDecay | null> {
  if (!form.decay_on) return { ok: true, value: null };
  const parsed = XpDecay.safeParse({
    percent_per_week: boxNumber(form.decay_percent),
    after_inactive_days: boxNumber(form.decay_days),
    below_level_floor: form.decay_below_floor,
  });
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issue: firstIssue(parsed.error) };
}

export const SEASON_MONTHS_MESSAGE = `season_months must be null or a whole number of months from 1 to ${SEASON_MONTHS_MAX}`;

function editedSeason(form: NumbersForm): Checked<number | null> {
  if (!form.season_on) return { ok: true, value: null };
  const months = boxNumber(form.season_months);
  return Number.isInteger(months) && months >= 1 && months <= SEASON_MONTHS_MAX
    ? { ok: true, value: months }
    : { ok: false, issue: SEASON_MONTHS_MESSAGE };
}

/** The API's sentence for a range whose ends cross (apps/api leveling settings). */
export const XP_RANGE_MESSAGE = 'The least XP a message earns (xp_min) must be at most the most (xp_max)';

/** An XP box as sent: what was typed (the API clamps it), or core's clamp of the text. */
function submittedXp(text: string): number {
  const n = boxNumber(text);
  return Number.isFinite(n) ? n : clampXpPerMessage(text);
}

/** The fields a refusal is said under, keyed as the API names them. */
export const NUMBER_ISSUE_KEYS = ['xp_min', 'xp_max', 'level_curve', 'xp_decay', 'season_months'] as const;
export type NumberIssueKey = (typeof NUMBER_ISSUE_KEYS)[number];

/** What is wrong with the numbers before saving, by field (empty: they can be sent). */
export function numberIssues(form: NumbersForm): Partial<Record<NumberIssueKey, string>> {
  const issues: Partial<Record<NumberIssueKey, string>> = {};
  // Compared as the API stores them (clamped to 0..1000), so only a range it refuses is refused.
  if (clampXpPerMessage(submittedXp(form.xp_min)) > clampXpPerMessage(submittedXp(form.xp_max))) {
    issues.xp_min = XP_RANGE_MESSAGE;
  }
  const curve = editedCurve(form);
  if (!curve.ok) issues.level_curve = curve.issue;
  const decay = editedDecay(form);
  if (!decay.ok) issues.xp_decay = decay.issue;
  const season = editedSeason(form);
  if (!season.ok) issues.season_months = season.issue;
  return issues;
}

/**
 * The curve, decay and season in the PUT body (the range goes with the other numbers, for their
 * clamp notes): decay and season as typed, the curve only when it changed (a new curve starts a
 * recompute). Call once `numberIssues` is empty.
 */
export function submittedNumbers(form: NumbersForm, stored: LevelCurve) {
  const curve = editedCurve(form);
  const decay = editedDecay(form);
  const season = editedSeason(form);
  return {
    ...(curve.ok && !sameCurve(curve.value, stored) ? { level_curve: curve.value } : {}),
    xp_decay: decay.ok ? decay.value : null,
    season_months: season.ok ? season.value : null,
    season_keep_rewards: form.season_keep_rewards,
  };
}

/** The line under the range: "15–25 XP per message, 20 on average", or "20 XP per message". */
export function expectedXpLine(minText: string, maxText: string): string | null {
  const min = boxNumber(minText);
  const max = boxNumber(maxText);
  if (!Number.isFinite(min) || !Number.isFinite(max)) return null;
  const low = clampXpPerMessage(min);
  const high = clampXpPerMessage(max);
  if (low > high) return null;
  if (low === high) return `${low} XP per message`;
  const average = expectedMessageXp(low, high);
  return `${low}–${high} XP per message, ${formatXp(average)} on average`;
}

function formatXp(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** A total in the preview, grouped for reading (12,345). */
export function xpText(n: number): string {
  return n.toLocaleString('en-US');
}

export const CURVE_RECOMPUTE_NOTE =
  "Saving a changed curve recomputes every member's level from their XP and adds or removes reward roles to match. Nothing is announced.";

export const decayRule = (days: string, percent: string) =>
  `Members who earn nothing for ${days.trim() || 'N'} days lose ${percent.trim() || 'P'}% of their XP each week.`;
