import { missingBotPermissions } from '@spacecadet/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { installUrl } from '../../lib/oauth.ts';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import {
  jobFailureText,
  missingPermissionText,
  ONBOARDING_NOTE,
  ONBOARDING_SWITCH_LABEL,
  PERSONALITY_FAILURES,
} from './personality-model.ts';

interface OnboardingCardProps {
  guildId: string;
  /** The stored switch, as GET answered it. */
  enabled: boolean;
  botInGuild: boolean;
  /** The page's error box: a failed request or job, or null to clear it. */
  onProblem: (problem: string | null) => void;
}

/**
 * "Also ask in Discord Onboarding": the switch is stored at once, then its job makes the
 * server's Onboarding match (progress and result below the switch, a failure in the page's
 * error box).
 */
export function OnboardingCard({ guildId, enabled, botInGuild, onProblem }: OnboardingCardProps) {
  const queryClient = useQueryClient();
  const stateKey = queryKeys.personalityRoles(guildId);
  const tracker = useGuildJob(stateKey);
  const jobFailure = jobFailureText(tracker.job);
  useEffect(() => {
    if (jobFailure !== null) onProblem(jobFailure);
  }, [jobFailure, onProblem]);

  const change = useMutation({
    mutationFn: (next: boolean) =>
      apiCall('setPersonalityOnboarding', { params: { guildId }, body: { enabled: next } }),
    onMutate: () => onProblem(null),
    onError: (error: unknown) => onProblem(errorText(error, PERSONALITY_FAILURES.onboarding)),
    onSuccess: (accepted) => {
      tracker.track(accepted.job_id);
      // The switch is stored before the job runs: show it stored.
      void queryClient.invalidateQueries({ queryKey: stateKey });
    },
  });
  // While the request is on its way the switch shows what was asked for.
  const checked = change.isPending && change.variables !== undefined ? change.variables : enabled;
  // What the bot lacks for Onboarding, said here rather than as a failed job at the top of the
  // page. Unknown (not read yet, or the read failed): nothing is said and nothing is held back.
  const permissions = useQuery({
    queryKey: queryKeys.botPermissions(guildId),
    queryFn: () => apiCall('getBotPermissions', { params: { guildId } }),
    enabled: botInGuild,
    retry: false,
  });
  const missing = permissions.data ? missingBotPermissions(permissions.data.permissions, 'onboarding') : [];

  return (
    <section className="card onboarding-card" aria-labelledby="p-onboarding-title">
      <h2 id="p-onboarding-title">Discord Onboarding</h2>
      <label className="checkbox-field">
        <input
          type="checkbox"
          role="switch"
          aria-checked={checked}
          checked={checked}
          aria-describedby={missing.length > 0 ? 'p-onboarding-missing' : undefined}
          disabled={!botInGuild || change.isPending || tracker.running || (!checked && missing.length > 0)}
          onChange={(event) => change.mutate(event.target.checked)}
        />
        {ONBOARDING_SWITCH_LABEL}
      </label>
      {missing.length > 0 ? (
        <p id="p-onboarding-missing" className="permission-note">
          {missingPermissionText(missing)}{' '}
          <a href={installUrl(guildId, ['onboarding'])}>Re-invite the bot with {missing.join(' and ')}</a>, or
          give its role {missing.length === 1 ? 'it' : 'them'} in Server Settings → Roles, then reload this
          page.
        </p>
      ) : null}
      <p className="muted small">{ONBOARDING_NOTE}</p>
      {tracker.job && jobFailure === null ? (
        <>
          <JobProgress job={tracker.job} />
          <JobWarnings warnings={jobResultOf(tracker.job)?.warnings ?? []} />
        </>
      ) : null}
    </section>
  );
}
