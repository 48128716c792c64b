/** The Welcome page's role groups: auto-roles for people and bots with their delay, and sticky roles. */
import { AUTO_ROLE_DELAY_MAX_S, STICKY_EXCLUDE_MAX, WELCOME_AUTO_ROLES_MAX } from '@spacecadet/contract';
import { useState } from 'react';
import { RoleMultiPicker } from '../shared/MultiPickers.tsx';
import { Check, type SectionProps } from './WelcomeSections.tsx';

const GIVABLE_HINT =
  'Roles held by an integration are not listed; a role above the bot’s own is refused on Save, naming it.';

type Unit = 'seconds' | 'minutes';

/** The delay as typed with its unit; stored in seconds. */
function DelayField({ value, onChange }: { value: number; onChange: (seconds: number) => void }) {
  const [unit, setUnit] = useState<Unit>(value > 0 && value % 60 === 0 ? 'minutes' : 'seconds');
  const factor = unit === 'minutes' ? 60 : 1;
  return (
    <div className="field welcome-delay">
      <label htmlFor="wl-delay">Wait before giving them</label>
      <div className="welcome-delay-row">
        <input
          id="wl-delay"
          className="input"
          type="number"
          min={0}
          max={AUTO_ROLE_DELAY_MAX_S / factor}
          value={value / factor}
          onChange={(event) => {
            const typed = Math.max(0, Math.round(Number(event.target.value) * factor));
            onChange(Number.isFinite(typed) ? Math.min(typed, AUTO_ROLE_DELAY_MAX_S) : 0);
          }}
        />
        <select
          className="select"
          aria-label="Delay unit"
          value={unit}
          onChange={(event) => setUnit(event.target.value as Unit)}
        >
          <option value="seconds">seconds</option>
          <option value="minutes">minutes</option>
        </select>
      </div>
    </div>
  );
}

export function AutoRolesGroup({ guildId, form, set }: SectionProps) {
  return (
    <fieldset className="settings-group">
      <legend>Auto-roles</legend>
      <RoleMultiPicker
        id="wl-auto-roles"
        label="Roles for people who join"
        hint={`Up to ${WELCOME_AUTO_ROLES_MAX}. Given after Membership Screening when the server has it. ${GIVABLE_HINT}`}
        guildId={guildId}
        givable
        value={form.auto_roles}
        onChange={set('auto_roles')}
      />
      <RoleMultiPicker
        id="wl-bot-auto-roles"
        label="Roles for bots that join"
        hint={`Up to ${WELCOME_AUTO_ROLES_MAX}.`}
        guildId={guildId}
        givable
        value={form.bot_auto_roles}
        onChange={set('bot_auto_roles')}
      />
      <DelayField value={form.auto_role_delay_s} onChange={set('auto_role_delay_s')} />
    </fieldset>
  );
}

export function StickyRolesGroup({ guildId, form, set }: SectionProps) {
  return (
    <fieldset className="settings-group">
      <legend>Sticky roles</legend>
      <Check checked={form.sticky_roles} onChange={set('sticky_roles')}>
        Give members back the roles they had when they rejoin (within 30 days)
      </Check>
      {form.sticky_roles ? (
        <RoleMultiPicker
          id="wl-sticky-exclude"
          label="Never give back"
          hint={`Up to ${STICKY_EXCLUDE_MAX}. Managed roles and roles above the bot are never given back.`}
          guildId={guildId}
          value={form.sticky_exclude_role_ids}
          onChange={set('sticky_exclude_role_ids')}
        />
      ) : null}
    </fieldset>
  );
}
