/** The settings form's Voice XP section: XP a minute in voice, and the company it needs. */
import { VOICE_MIN_MEMBERS_MAX, VOICE_XP_PER_MINUTE_MAX } from '@spacecadet/contract';
import { TextField } from '../../ui/Field.tsx';
import type { SettingsForm as Form } from './leveling-model.ts';
import type { SetField } from './useSettingsForm.ts';

export const VOICE_XP_RULE =
  'A member earns this for each full minute in a voice channel, while not muted or deafened, with at least the people below in the channel (bots not counted). The AFK channel and no-XP channels earn nothing; the multiplier and boosts apply. 0 turns voice XP off.';

export function VoiceXpFields({ form, set }: { form: Form; set: SetField }) {
  return (
    <fieldset className="settings-group">
      <legend>Voice XP</legend>
      <p className="muted small">{VOICE_XP_RULE}</p>
      <div className="form-grid">
        <TextField
          id="lv-voice_xp_per_minute"
          label="Voice XP per minute"
          type="number"
          min={0}
          max={VOICE_XP_PER_MINUTE_MAX}
          step={1}
          value={form.voice_xp_per_minute}
          onChange={set('voice_xp_per_minute')}
        />
        <TextField
          id="lv-voice_min_members"
          label="People needed in the channel"
          type="number"
          min={1}
          max={VOICE_MIN_MEMBERS_MAX}
          step={1}
          value={form.voice_min_members}
          onChange={set('voice_min_members')}
        />
      </div>
    </fieldset>
  );
}
