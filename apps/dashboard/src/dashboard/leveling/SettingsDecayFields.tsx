/** The settings form's XP decay and Seasons sections: both off unless switched on. */
import { DECAY_INACTIVE_DAYS_MAX, DECAY_PERCENT_MAX, SEASON_MONTHS_MAX } from '@spacecadet/contract';
import { TextField } from '../../ui/Field.tsx';
import type { SettingsForm as Form } from './leveling-model.ts';
import { decayRule } from './numbers-model.ts';
import type { FieldIssueKey, SetField } from './useSettingsForm.ts';

type Props = { form: Form; set: SetField; issue: (key: FieldIssueKey) => string | null };

function IssueLine({ id, issue }: { id: string; issue: string | null }) {
  return issue ? (
    <p id={id} className="alert alert-error small" role="alert">
      {issue}
    </p>
  ) : null;
}

/** "XP decay": inactive members lose a share of their XP each week. */
export function DecayFields({ form, set, issue: issueOf }: Props) {
  const issue = issueOf('xp_decay');
  const invalid = issue ? { 'aria-invalid': true, 'aria-describedby': 'lv-decay-issue' } : {};
  return (
    <fieldset className="settings-group">
      <legend>XP decay</legend>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={form.decay_on}
          onChange={(event) => set('decay_on')(event.target.checked)}
        />
        Inactive members lose XP
      </label>
      {form.decay_on ? (
        <>
          <p className="muted small">
            {decayRule(form.decay_days, form.decay_percent)} Unless the box below is ticked, decay stops at
            the XP their current level starts at, so nobody loses a level.
          </p>
          <div className="form-grid">
            <TextField
              id="lv-decay-days"
              label="Days without XP before decay"
              type="number"
              min={1}
              max={DECAY_INACTIVE_DAYS_MAX}
              step={1}
              value={form.decay_days}
              onChange={set('decay_days')}
              {...invalid}
            />
            <TextField
              id="lv-decay-percent"
              label="Percent of XP lost each week"
              type="number"
              min={0}
              max={DECAY_PERCENT_MAX}
              step={0.1}
              value={form.decay_percent}
              onChange={set('decay_percent')}
              {...invalid}
            />
          </div>
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={form.decay_below_floor}
              onChange={(event) => set('decay_below_floor')(event.target.checked)}
            />
            May take members below their current level's floor
          </label>
        </>
      ) : (
        <p className="muted small">Off: XP never decays.</p>
      )}
      <IssueLine id="lv-decay-issue" issue={issue} />
    </fieldset>
  );
}

/** "Seasons": a season may end by itself every N months. */
export function SeasonFields({ form, set, issue: issueOf }: Props) {
  const issue = issueOf('season_months');
  return (
    <fieldset className="settings-group">
      <legend>Seasons</legend>
      <div className="season-row">
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={form.season_on}
            onChange={(event) => set('season_on')(event.target.checked)}
          />
          End a season automatically every
        </label>
        <input
          id="lv-season-months"
          className="input season-months"
          type="number"
          aria-label="Months in a season"
          min={1}
          max={SEASON_MONTHS_MAX}
          step={1}
          disabled={!form.season_on}
          value={form.season_months}
          onChange={(event) => set('season_months')(event.target.value)}
          {...(issue ? { 'aria-invalid': true, 'aria-describedby': 'lv-season-issue' } : {})}
        />
        <span>months</span>
      </div>
      <IssueLine id="lv-season-issue" issue={issue} />
      {form.season_on ? (
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={form.season_keep_rewards}
            onChange={(event) => set('season_keep_rewards')(event.target.checked)}
          />
          Members keep their reward roles when a season ends by itself
        </label>
      ) : null}
      <p className="muted small">
        {form.season_on
          ? "Ending a season archives every member's XP and level (its top 10 named) and starts XP and levels again at 0."
          : 'Off: a season ends only when an admin ends it.'}{' '}
        The Seasons page shows the hall of fame of past seasons.
      </p>
    </fieldset>
  );
}
