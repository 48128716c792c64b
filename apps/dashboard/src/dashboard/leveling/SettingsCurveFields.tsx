/**
 * The settings form's Level curve section: a formula (a·L² + b·L + c) or a table of steps, and
 * a preview of levels 1–50 for the curve as typed, before saving (core's `curvePreview`).
 */
import { CURVE_COEFFICIENT_MAX, CURVE_PREVIEW_LEVELS, type LevelCurve } from '@spacecadet/contract';
import { TextField } from '../../ui/Field.tsx';
import type { SettingsForm as Form } from './leveling-model.ts';
import {
  CURVE_RECOMPUTE_NOTE,
  type CurveKind,
  curveChanged,
  defaultCurveFields,
  editedCurve,
  previewRows,
  xpText,
} from './numbers-model.ts';
import { ChoiceList } from './SettingsChoiceGroups.tsx';
import type { FieldIssueKey, SetField } from './useSettingsForm.ts';

const CURVE_KINDS = ['quadratic', 'table'] as const satisfies readonly CurveKind[];
const CURVE_KIND_TEXT: Readonly<Record<CurveKind, { label: string; detail: string }>> = {
  quadratic: {
    label: 'Formula',
    detail: 'The XP from level L to L+1 is a·L² + b·L + c (the default is 5·L² + 50·L + 100).',
  },
  table: {
    label: 'Table',
    detail: 'List the XP each level takes; levels past the end of the list take its last step.',
  },
};
const TABLE_START_STEPS = 10;
const COEFFICIENTS = [
  { key: 'curve_a', label: 'a (× L²)' },
  { key: 'curve_b', label: 'b (× L)' },
  { key: 'curve_c', label: 'c (every level)' },
] as const;

export function CurveFields({
  form,
  set,
  stored,
  issue: issueOf,
}: {
  form: Form;
  set: SetField;
  stored: LevelCurve;
  issue: (key: FieldIssueKey) => string | null;
}) {
  const issue = issueOf('level_curve');
  const edited = editedCurve(form);
  const changed = curveChanged(form, stored);
  const reset = () => {
    const fields = defaultCurveFields();
    for (const key of ['curve_kind', 'curve_a', 'curve_b', 'curve_c'] as const) set(key)(fields[key]);
  };
  // A table starts from the formula's first ten steps rather than empty (and refused).
  const pickKind = (kind: CurveKind) => {
    set('curve_kind')(kind);
    if (kind === 'table' && form.curve_table.trim() === '' && edited.ok) {
      const steps = previewRows(edited.value).slice(0, TABLE_START_STEPS);
      set('curve_table')(steps.map((row) => row.xp_for_level).join(', '));
    }
  };
  const invalid = issue ? { 'aria-invalid': true, 'aria-describedby': 'lv-curve-issue' } : {};
  return (
    <fieldset className="settings-group">
      <legend>Level curve</legend>
      <ChoiceList
        name="lv-curve-kind"
        choices={CURVE_KINDS}
        text={CURVE_KIND_TEXT}
        value={form.curve_kind}
        onChange={pickKind}
      />
      {form.curve_kind === 'quadratic' ? (
        <div className="form-grid curve-coefficients">
          {COEFFICIENTS.map(({ key, label }) => (
            <TextField
              key={key}
              id={`lv-${key}`}
              label={label}
              type="number"
              min={0}
              max={CURVE_COEFFICIENT_MAX}
              step={1}
              value={form[key]}
              onChange={set(key)}
              {...invalid}
            />
          ))}
        </div>
      ) : (
        <div className="field">
          <label htmlFor="lv-curve-table">XP for each level</label>
          <textarea
            id="lv-curve-table"
            className="input curve-table-input"
            aria-describedby={issue ? 'lv-curve-table-hint lv-curve-issue' : 'lv-curve-table-hint'}
            aria-invalid={issue ? true : undefined}
            value={form.curve_table}
            placeholder={'100, 155, 220, 295'}
            onChange={(event) => set('curve_table')(event.target.value)}
          />
          <span id="lv-curve-table-hint" className="muted small">
            The XP from level 0 to 1, then 1 to 2, and so on, separated by commas or new lines (up to 100).
          </span>
        </div>
      )}
      {issue ? (
        <p id="lv-curve-issue" className="alert alert-error small" role="alert">
          {issue}
        </p>
      ) : null}
      <div className="curve-actions">
        <button type="button" className="btn btn-secondary btn-sm" onClick={reset}>
          Reset to default
        </button>
        <p className={changed ? 'alert alert-warning small' : 'muted small'}>{CURVE_RECOMPUTE_NOTE}</p>
      </div>
      {edited.ok ? <CurvePreview curve={edited.value} /> : null}
    </fieldset>
  );
}

/** Levels 1–50 of the curve being edited: the total XP to reach each, and that level's step. */
function CurvePreview({ curve }: { curve: LevelCurve }) {
  const rows = previewRows(curve);
  return (
    <figure className="curve-preview">
      <figcaption id="lv-curve-preview-title" className="small">
        Preview before saving: levels 1–{CURVE_PREVIEW_LEVELS} with this curve
      </figcaption>
      <p className="muted small">
        Total XP: what a member needs to reach the level. Step: the XP from the level before.
      </p>
      <section
        className="curve-preview-scroll"
        aria-labelledby="lv-curve-preview-title"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box keyboard users must reach to scroll it (axe scrollable-region-focusable)
        tabIndex={0}
      >
        <table className="curve-table">
          <thead>
            <tr>
              <th scope="col">Level</th>
              <th scope="col" className="num">
                Total XP
              </th>
              <th scope="col" className="num">
                Step
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.level} data-testid={`curve-level-${row.level}`}>
                <th scope="row">{row.level}</th>
                <td className="num">{xpText(row.total_xp)}</td>
                <td className="num">{xpText(row.xp_for_level)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </figure>
  );
}
