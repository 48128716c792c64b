/** The leveling settings page: the settings form (its sections live beside it) and the Maintenance card. */
import type { LevelingRole, LevelingSettings as Settings } from '@spacecadet/contract';
import { Navigate } from 'react-router';
import { errorText } from '../../lib/api-error.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild, GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { LevelingNav } from './LevelingNav.tsx';
import { LEVELING_FAILURES, useLeveling } from './leveling-model.ts';
import { RankCardSettings } from './RankCardSettings.tsx';
import { LeaderboardGroup, LevelUpGroup, RewardModeGroup } from './SettingsChoiceGroups.tsx';
import { CurveFields } from './SettingsCurveFields.tsx';
import { DecayFields, SeasonFields } from './SettingsDecayFields.tsx';
import { SettingsMaintenance } from './SettingsMaintenance.tsx';
import { VoiceXpFields } from './SettingsVoiceFields.tsx';
import { NoXpFields, RateAndChannelFields, XpRangeFields } from './SettingsXpFields.tsx';
import { useLevelingMaintenance } from './useLevelingMaintenance.ts';
import { useSettingsForm } from './useSettingsForm.ts';

export default function LevelingSettingsPage() {
  return (
    <GuildPage
      title="Leveling settings"
      head={(guildId) => (guildId ? <LevelingNav guildId={guildId} /> : null)}
      // Spec: with no guild given it goes to /dashboard.
      noGuild={<Navigate to="/dashboard" replace />}
    >
      {(guildId) => <SettingsScreen guildId={guildId} />}
    </GuildPage>
  );
}

function SettingsScreen({ guildId }: { guildId: string }) {
  const guard = usePageGuard(guildId, useLeveling(guildId), {
    failure: (error) => errorText(error, LEVELING_FAILURES.loadSettings),
    bot: true,
  });
  if (!guard.ready) return guard.view;
  return (
    <>
      {guard.banner}
      <SettingsForm
        guildId={guildId}
        initial={guard.data.leveling}
        roles={guard.data.roles}
        botInGuild={guard.botInGuild}
      />
    </>
  );
}

function SettingsForm({
  guildId,
  initial,
  roles,
  botInGuild,
}: {
  guildId: string;
  initial: Settings;
  roles: readonly LevelingRole[];
  botInGuild: boolean;
}) {
  const state = useSettingsForm(guildId, initial);
  const { form, stored, notes, set, save, submit, refused, issue, problem, setProblem } = state;
  // The header's switch changes `enabled` in the cache; the Save note follows it.
  const cached = useLeveling(guildId).data?.leveling.enabled;
  const maintenance = useLevelingMaintenance({ guildId, ...state });
  const fields = { guildId, botInGuild, form, set, issue };

  return (
    <>
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      {maintenance.dialog}
      {botInGuild ? null : <BotNotInGuild guildId={guildId} />}
      <section className="card form-card" aria-label="Settings">
        <RateAndChannelFields notes={notes} {...fields} />
        <XpRangeFields notes={notes} {...fields} />
        <CurveFields form={form} set={set} stored={stored.level_curve} issue={issue} />
        <NoXpFields {...fields} />
        <VoiceXpFields form={form} set={set} />
        <DecayFields form={form} set={set} issue={issue} />
        <SeasonFields form={form} set={set} issue={issue} />
        <RankCardSettings guildId={guildId} />
        <LevelUpGroup roles={roles} {...fields} />
        <RewardModeGroup form={form} set={set} />
        <LeaderboardGroup guildId={guildId} form={form} stored={stored} set={set} />
        <div className="button-row">
          <button
            type="button"
            className="btn btn-primary"
            disabled={save.isPending || maintenance.resetting}
            onClick={submit}
          >
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          {save.isSuccess ? <output className="save-note">Saved</output> : null}
          {refused ? (
            <span className="alert alert-error small" role="status">
              Nothing was saved: fix the fields marked above.
            </span>
          ) : null}
          {(cached ?? stored.enabled) ? null : <span className="muted small">Saving turns leveling on.</span>}
        </div>
      </section>
      <SettingsMaintenance maintenance={maintenance} saving={save.isPending} done={state.done} />
    </>
  );
}
