import type { PersonalityRolesState } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ChannelCard, useChannelChoice } from '../ChannelPicker.tsx';
import { ErrorBox } from '../ErrorBox.tsx';
import { BotNotInGuild, GuildPage, usePageGuard } from '../GuildPage.tsx';
import { GuildSelect } from '../GuildSelect.tsx';
import { JobProgress } from '../jobs/JobProgress.tsx';
import { JobWarnings } from '../jobs/JobWarnings.tsx';
import { jobResultOf } from '../jobs/job-model.ts';
import { useGuildJob } from '../jobs/useGuildJob.ts';
import { queryKeys } from '../queries.ts';
import { LastRefreshNote } from './LastRefreshNote.tsx';
import { OnboardingCard } from './OnboardingCard.tsx';
import {
  jobFailureText,
  PERSONALITY_FAILURES,
  PERSONALITY_RESET_CONFIRM,
  PLEASE_SELECT_CHANNEL,
  questionViews,
  REFRESH_NOTE,
  STATE_REFETCH_MS,
} from './personality-model.ts';

export default function PersonalityRoles() {
  return (
    <GuildPage title="Personality Roles" head={() => <GuildSelect />}>
      {(guildId) => <PersonalityScreen guildId={guildId} />}
    </GuildPage>
  );
}

function PersonalityScreen({ guildId }: { guildId: string }) {
  const queryClient = useQueryClient();
  const stateKey = queryKeys.personalityRoles(guildId);
  const state = useQuery({
    queryKey: stateKey,
    queryFn: () => apiCall('getPersonalityRoles', { params: { guildId } }),
    // The refresh runs every 5 minutes: re-read so its latest run shows.
    refetchInterval: STATE_REFETCH_MS,
  });
  const guard = usePageGuard(guildId, state, {
    loading: 'Loading personality roles…',
    failure: (error) => errorText(error, PERSONALITY_FAILURES.load),
    bot: true,
  });
  const tracker = useGuildJob(stateKey);
  const [channel, setChannel] = useChannelChoice(state.data?.assign_channel_id ?? null);
  const [problem, setProblem] = useState<string | null>(null);
  // A job that did not do its work moves to the dismissible error box, in its own words.
  const jobFailure = jobFailureText(tracker.job);
  useEffect(() => {
    if (jobFailure !== null) setProblem(jobFailure);
  }, [jobFailure]);
  // Picking a channel answers "Please select a channel first": that banner goes.
  const pickChannel = (value: string) => {
    setChannel(value);
    if (value.trim()) setProblem((current) => (current === PLEASE_SELECT_CHANNEL ? null : current));
  };

  // Most actions also queue a background refresh; its failure is ignored.
  const refresh = () => {
    apiCall('refreshPersonalityRoles', { params: { guildId } }).catch(() => undefined);
  };
  const reload = (data?: PersonalityRolesState) => {
    if (data) queryClient.setQueryData(stateKey, data);
    return queryClient.invalidateQueries({ queryKey: stateKey });
  };
  const mutation = <T, V = void>(
    run: (vars: V) => Promise<T>,
    failure: string,
    after: (result: T) => void,
  ) => ({
    mutationFn: run,
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(errorText(error, failure)),
    onSuccess: after,
  });
  const needsChannel = (then: () => void) => () =>
    channel.trim() ? then() : setProblem(PLEASE_SELECT_CHANNEL);

  const init = useMutation(
    mutation(
      () => apiCall('initPersonalityRoles', { params: { guildId }, body: { channel_id: channel.trim() } }),
      PERSONALITY_FAILURES.init,
      (data) => void reload(data).then(refresh),
    ),
  );
  const saveChannel = useMutation(
    mutation(
      (channelId: string) =>
        apiCall('setPersonalityChannel', { params: { guildId }, body: { channel_id: channelId } }),
      PERSONALITY_FAILURES.channel,
      () => void reload().then(refresh),
    ),
  );
  const toggle = useMutation(
    mutation(
      (vars: { type: string; enabled: boolean }) =>
        apiCall('togglePersonalityQuestion', {
          params: { guildId, question_type: vars.type },
          body: { enabled: vars.enabled },
        }),
      PERSONALITY_FAILURES.toggle,
      () => void reload().then(refresh),
    ),
  );
  const job = (
    name: 'generatePersonalityRoles' | 'postPersonalityMessages' | 'resetPersonalityRoles',
    failure: string,
  ) =>
    mutation(
      () => apiCall(name, { params: { guildId } }),
      failure,
      (accepted) => tracker.track(accepted.job_id),
    );
  const generate = useMutation(job('generatePersonalityRoles', PERSONALITY_FAILURES.generate));
  const post = useMutation(job('postPersonalityMessages', PERSONALITY_FAILURES.post));
  // The API puts the setup away before it queues the job: the Initialize card is back before the
  // job runs, and also when only the queueing failed (the setup is gone all the same).
  const reset = useMutation({
    ...job('resetPersonalityRoles', PERSONALITY_FAILURES.reset),
    onSettled: () => void reload(),
  });

  if (!guard.ready) return guard.view;
  const { data, botInGuild, banner } = guard;
  const busy = tracker.running || generate.isPending || post.isPending || reset.isPending;
  const questions = questionViews(data.questions);
  // The running or finished job, on either card (a reset's job runs under the Initialize card).
  const jobView =
    tracker.job && jobFailure === null ? (
      <>
        <JobProgress job={tracker.job} />
        <JobWarnings warnings={jobResultOf(tracker.job)?.warnings ?? []} />
      </>
    ) : null;

  return (
    <>
      {banner}
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      {botInGuild ? null : <BotNotInGuild guildId={guildId} />}
      {/* Save works before Initialize too: the channel is kept for it. */}
      <ChannelCard
        id="assign-channel"
        title="Assignment Channel"
        guildId={guildId}
        botInGuild={botInGuild}
        value={channel}
        onChange={pickChannel}
        onSave={(channelId) => saveChannel.mutate(channelId)}
        saving={saveChannel.isPending}
        saved={saveChannel.isSuccess}
      />

      {!data.configured ? (
        <section className="card init-card" aria-labelledby="init-title">
          <h2 id="init-title">Initialize Personality Roles</h2>
          <p className="muted">
            Adds the question categories (age range, pronouns, zodiac, gaming platform and more) to this
            server.
          </p>
          {channel.trim() ? null : <p className="small">{PLEASE_SELECT_CHANNEL}</p>}
          <button
            type="button"
            className="btn btn-primary"
            disabled={init.isPending}
            onClick={needsChannel(() => init.mutate())}
          >
            Initialize Personality Roles
          </button>
          {jobView}
        </section>
      ) : (
        <>
          <section className="card actions-card" aria-labelledby="p-actions-title">
            <h2 id="p-actions-title">Actions</h2>
            <div className="button-row">
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy || !botInGuild}
                onClick={needsChannel(() => generate.mutate())}
              >
                Generate Roles
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={busy || !botInGuild}
                onClick={needsChannel(() => post.mutate())}
              >
                Post / Update Messages
              </button>
              <button
                type="button"
                className="btn btn-danger"
                disabled={busy}
                onClick={() => window.confirm(PERSONALITY_RESET_CONFIRM) && reset.mutate()}
              >
                Reset
              </button>
            </div>
            <div className="refresh-notes">
              <p className="muted small">{REFRESH_NOTE}</p>
              <LastRefreshNote last={data.last_refresh ?? null} repair={data.last_repair ?? null} />
            </div>
            {jobView}
          </section>
          <section className="card" aria-labelledby="questions-title">
            <h2 id="questions-title">Question Categories</h2>
            <ul className="question-list">
              {questions.map((question) => (
                <li key={question.type} className="question-item">
                  <div>
                    <h3>{question.title}</h3>
                    <p className="muted small">{question.description}</p>
                    <p className="small">
                      {question.roleCount} roles · {question.multi ? 'Multi-select' : 'Single choice'}
                    </p>
                  </div>
                  <button
                    type="button"
                    className={`btn btn-sm ${question.enabled ? 'btn-primary' : 'btn-secondary'}`}
                    aria-pressed={question.enabled}
                    aria-label={`${question.title}: ${question.enabled ? 'Enabled' : 'Disabled'}`}
                    disabled={toggle.isPending}
                    onClick={() => toggle.mutate({ type: question.type, enabled: !question.enabled })}
                  >
                    {question.enabled ? 'Enabled' : 'Disabled'}
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <OnboardingCard
            guildId={guildId}
            enabled={data.onboarding ?? false}
            botInGuild={botInGuild}
            onProblem={setProblem}
          />
        </>
      )}
    </>
  );
}
