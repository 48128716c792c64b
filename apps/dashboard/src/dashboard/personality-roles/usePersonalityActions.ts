/** The Personality Roles screen's actions: the API calls behind its buttons, and what each does after. */
import type { PersonalityRolesState } from '@spacecadet/contract';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { useConfirm } from '../shared/ConfirmDialog.tsx';
import type { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import {
  deleteRolesConfirmText,
  INIT_CATEGORIES,
  PERSONALITY_FAILURES,
  questionViews,
} from './personality-model.ts';

interface PersonalityActionsInput {
  guildId: string;
  stateKey: QueryKey;
  tracker: ReturnType<typeof useGuildJob>;
  channel: string;
  categories: ReadonlySet<string>;
  setProblem: (problem: string | null) => void;
}

export function usePersonalityActions({
  guildId,
  stateKey,
  tracker,
  channel,
  categories,
  setProblem,
}: PersonalityActionsInput) {
  const queryClient = useQueryClient();
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
  const { generate, post, reset } = usePersonalityJobs(guildId, tracker, mutation, reload);
  const busy =
    tracker.running || generate.isPending || post.isPending || reset.isPending || deleteRoles.isPending;

  return { init, saveChannel, toggle, generate, post, reset, busy, confirmation, confirmDeleteRoles };
}

export type PersonalityActions = ReturnType<typeof usePersonalityActions>;

/** Generate Roles, Post / Update Messages and Reset: each queues a job the tracker follows. */
function usePersonalityJobs(
  guildId: string,
  tracker: ReturnType<typeof useGuildJob>,
  mutation: <T, V = void>(
    run: (vars: V) => Promise<T>,
    failure: string,
    after: (result: T) => void,
  ) => {
    mutationFn: (vars: V) => Promise<T>;
    onMutate: () => void;
    onError: (error: unknown) => void;
    onSuccess: (result: T) => void;
  },
  reload: () => Promise<void>,
) {
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
  return { generate, post, reset };
}
