import type { PersonalityRolesState } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorAlert } from '../../ui/Field.tsx';
import { PageLoading } from '../../ui/PageLoading.tsx';
import { ChannelField } from '../ChannelField.tsx';
import { JobProgress } from '../color-roles/JobProgress.tsx';
import { useJobTracker } from '../color-roles/useColorJob.ts';
import { GuildPage } from '../GuildPage.tsx';
import { GuildSelect } from '../GuildSelect.tsx';
import { useBotInGuild } from '../queries.ts';
import {
  PERSONALITY_FAILURES,
  PERSONALITY_RESET_CONFIRM,
  PLEASE_SELECT_CHANNEL,
  questionViews,
  REFRESH_NOTE,
} from './personality-model.ts';

const stateKey = (guildId: string) => ['personality-roles', guildId] as const;

export default function PersonalityRoles() {
  return (
    <GuildPage title="Personality Roles" head={() => <GuildSelect />}>
      {(guildId) => <PersonalityScreen guildId={guildId} />}
    </GuildPage>
  );
}

function PersonalityScreen({ guildId }: { guildId: string }) {
  const queryClient = useQueryClient();
  const state = useQuery({
    queryKey: stateKey(guildId),
    queryFn: () => apiCall('getPersonalityRoles', { params: { guildId } }),
  });
  const inGuild = useBotInGuild(guildId);
  const tracker = useJobTracker(stateKey(guildId));
  const [channel, setChannel] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const savedChannel = state.data?.assign_channel_id ?? null;
  useEffect(() => {
    if (savedChannel) setChannel(savedChannel);
  }, [savedChannel]);

  // Most actions also queue a background refresh; its failure is ignored.
  const refresh = () => {
    apiCall('refreshPersonalityRoles', { params: { guildId } }).catch(() => undefined);
  };
  const reload = (data?: PersonalityRolesState) => {
    if (data) queryClient.setQueryData(stateKey(guildId), data);
    return queryClient.invalidateQueries({ queryKey: stateKey(guildId) });
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
      () => apiCall('setPersonalityChannel', { params: { guildId }, body: { channel_id: channel.trim() } }),
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
  const reset = useMutation(job('resetPersonalityRoles', PERSONALITY_FAILURES.reset));

  if (state.isPending || inGuild.isPending) return <PageLoading label="Loading personality roles…" />;
  if (state.isError) {
    return <ErrorAlert>{errorText(state.error, PERSONALITY_FAILURES.load)}</ErrorAlert>;
  }
  const botInGuild = inGuild.data === true;
  const busy = tracker.running || generate.isPending || post.isPending || reset.isPending;
  const questions = questionViews(state.data.questions);

  return (
    <>
      {problem ? (
        <div className="alert alert-error dismissible" role="alert">
          <span>{problem}</span>
          <button type="button" className="link-button" onClick={() => setProblem(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      <section className="card channel-card" aria-labelledby="assign-title">
        <h2 id="assign-title">Assignment Channel</h2>
        <div className="channel-row">
          <ChannelField
            id="assign-channel"
            label="Channel"
            guildId={guildId}
            botInGuild={botInGuild}
            value={channel}
            onChange={setChannel}
          />
          {state.data.configured ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={!botInGuild || !channel.trim() || saveChannel.isPending}
              onClick={() => saveChannel.mutate()}
            >
              Save
            </button>
          ) : null}
        </div>
      </section>

      {!state.data.configured ? (
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
            <p className="muted small">{REFRESH_NOTE}</p>
            {tracker.job ? <JobProgress job={tracker.job} /> : null}
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
        </>
      )}
    </>
  );
}
