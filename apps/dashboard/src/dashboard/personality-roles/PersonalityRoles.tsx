import type { PersonalityRolesState } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ChannelCard, useChannelChoice } from '../shared/ChannelPicker.tsx';
import { previewCall, UNDO_NOTE, useConfirm } from '../shared/ConfirmDialog.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild, GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { GuildSelect } from '../shared/GuildSelect.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import { LastRefreshNote } from './LastRefreshNote.tsx';
import { OnboardingCard } from './OnboardingCard.tsx';
import {
  CHOOSE_CATEGORY,
  deleteRolesConfirmText,
  INIT_CATEGORIES,
  initChoiceText,
  jobFailureText,
  PERSONALITY_FAILURES,
  PLEASE_SELECT_CHANNEL,
  questionViews,
  REFRESH_NOTE,
  resetConfirmText,
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
  // The Initialize card's categories: all on by default, the admin may turn some off.
  const [categories, setCategories] = useState<ReadonlySet<string>>(
    () => new Set(INIT_CATEGORIES.map((c) => c.type)),
  );
  const pickCategory = (type: string, on: boolean) =>
    setCategories((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
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
      () =>
        apiCall('initPersonalityRoles', {
          params: { guildId },
          body: {
            channel_id: channel.trim(),
            // In catalog order, as the card lists them.
            categories: INIT_CATEGORIES.filter((c) => categories.has(c.type)).map((c) => c.type),
          },
        }),
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
  // Disabling removes the category's message (the refresh the API queued); its roles go too
  // when the admin says so, asked with their count once the switch is stored.
  const toggle = useMutation(
    mutation(
      (vars: { type: string; enabled: boolean }) =>
        apiCall('togglePersonalityQuestion', {
          params: { guildId, question_type: vars.type },
          body: { enabled: vars.enabled },
        }),
      PERSONALITY_FAILURES.toggle,
      (question) => {
        void reload().then(refresh);
        const roles = question.created_roles ?? 0;
        if (!question.is_enabled && roles > 0) {
          const title = questionViews([question])[0]?.title ?? question.question_type;
          confirmDeleteRoles(question.question_type, title, roles);
        }
      },
    ),
  );
  const confirmation = useConfirm();
  const confirmDeleteRoles = (type: string, title: string, roles: number) => {
    confirmation.ask({
      title: `Delete the roles of ${title}?`,
      question: deleteRolesConfirmText(title, roles),
      confirmLabel: `Delete ${roles === 1 ? 'its role' : `its ${roles} roles`}`,
      // Not kept in History: the roles and who held them are gone for good.
      undoNote: null,
      onConfirm: () => deleteRoles.mutateAsync(type),
    });
  };
  const deleteRoles = useMutation(
    mutation(
      (type: string) =>
        apiCall('deletePersonalityQuestionRoles', { params: { guildId, question_type: type } }),
      PERSONALITY_FAILURES.deleteRoles,
      (accepted) => {
        tracker.track(accepted.job_id);
        void reload();
      },
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
  const busy =
    tracker.running || generate.isPending || post.isPending || reset.isPending || deleteRoles.isPending;
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
      {confirmation.dialog}
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
          <fieldset className="category-choice">
            <legend>Categories to turn on</legend>
            <ul>
              {INIT_CATEGORIES.map((category) => (
                <li key={category.type}>
                  <label className="checkbox-field">
                    <input
                      type="checkbox"
                      checked={categories.has(category.type)}
                      onChange={(event) => pickCategory(category.type, event.target.checked)}
                    />
                    <span>
                      {category.title} <span className="muted small">({category.roleCount} roles)</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <p className="small" aria-live="polite">
            {categories.size > 0 ? initChoiceText(categories) : CHOOSE_CATEGORY}
          </p>
          {channel.trim() ? null : <p className="small">{PLEASE_SELECT_CHANNEL}</p>}
          <button
            type="button"
            className="btn btn-primary"
            disabled={init.isPending || categories.size === 0}
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
                onClick={() =>
                  confirmation.ask({
                    title: 'Reset personality roles?',
                    question: resetConfirmText(data.questions),
                    confirmLabel: 'Reset Personality',
                    preview: previewCall('previewPersonalityReset', { guildId }),
                    undoNote: UNDO_NOTE,
                    onConfirm: () => reset.mutateAsync(),
                  })
                }
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
                    {/* Kept when the admin chose to: a disabled category's roles can still go. */}
                    {!question.enabled && question.createdRoles > 0 ? (
                      <button
                        type="button"
                        className="link-button small"
                        disabled={busy}
                        onClick={() =>
                          confirmDeleteRoles(question.type, question.title, question.createdRoles)
                        }
                      >
                        Delete its {question.createdRoles} roles in Discord
                      </button>
                    ) : null}
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
