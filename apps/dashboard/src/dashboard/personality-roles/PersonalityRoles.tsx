/** The Personality Roles page: the channel, the Initialize card or the configured cards, and the error box. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ChannelCard, useChannelChoice } from '../shared/ChannelPicker.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild, GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { GuildSelect } from '../shared/GuildSelect.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import { ActionsCard } from './ConfiguredCards.tsx';
import { InitCard, useCategoryChoice } from './InitCard.tsx';
import { InsightsCard } from './InsightsCard.tsx';
import { OnboardingCard } from './OnboardingCard.tsx';
import {
  jobFailureText,
  PERSONALITY_FAILURES,
  PLEASE_SELECT_CHANNEL,
  STATE_REFETCH_MS,
} from './personality-model.ts';
import { QuestionsCard } from './QuestionsCard.tsx';
import { usePersonalityActions } from './usePersonalityActions.ts';
import '../../styles/leveling.css';
import '../../styles/personality.css';
import '../../styles/role-menus.css';
import { useQuestionActions } from './useQuestionActions.ts';

export default function PersonalityRoles() {
  return (
    <GuildPage title="Personality Roles" head={() => <GuildSelect />}>
      {(guildId) => <PersonalityScreen guildId={guildId} />}
    </GuildPage>
  );
}

function PersonalityScreen({ guildId }: { guildId: string }) {
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
  const [categories, pickCategory] = useCategoryChoice();
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

  const actions = usePersonalityActions({ guildId, stateKey, tracker, channel, categories, setProblem });
  const questionActions = useQuestionActions({ guildId, stateKey, tracker, setProblem });
  const { init, saveChannel, confirmation } = actions;
  const needsChannel = (then: () => void) => () =>
    channel.trim() ? then() : setProblem(PLEASE_SELECT_CHANNEL);

  if (!guard.ready) return guard.view;
  const { data, botInGuild, banner } = guard;
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
        <InitCard
          categories={categories}
          onPickCategory={pickCategory}
          channel={channel}
          pending={init.isPending}
          onInit={needsChannel(() => init.mutate())}
          jobView={jobView}
        />
      ) : (
        <>
          <ActionsCard
            guildId={guildId}
            data={data}
            botInGuild={botInGuild}
            actions={actions}
            needsChannel={needsChannel}
            jobView={jobView}
          />
          <QuestionsCard
            guildId={guildId}
            botInGuild={botInGuild}
            data={data}
            actions={actions}
            questions={questionActions}
          />
          <OnboardingCard
            guildId={guildId}
            enabled={data.onboarding ?? false}
            botInGuild={botInGuild}
            onProblem={setProblem}
          />
          <InsightsCard guildId={guildId} />
        </>
      )}
    </>
  );
}
