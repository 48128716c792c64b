/**
 * The question list's actions: save a question (new or edited), order them, remove one, import
 * Discord Onboarding's prompts; and the insights the confirmations count members from.
 */
import type { ImportOnboardingResult, PersonalityQuestion } from '@spacecadet/contract';
import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import type { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { PERSONALITY_FAILURES } from './personality-model.ts';
import { importResultText, type QuestionDraft, questionBody } from './question-editor-model.ts';

/** The insights of the last `days` days (under the page's key: any change reloads them too). */
export function insightsKey(guildId: string, days: number) {
  return ['personality-roles', guildId, 'insights', days] as const;
}

export function useInsights(guildId: string, days: number) {
  return useQuery({
    queryKey: insightsKey(guildId, days),
    queryFn: () => apiCall('getPersonalityInsights', { params: { guildId }, query: { days } }),
  });
}

interface QuestionActionsInput {
  guildId: string;
  stateKey: QueryKey;
  tracker: ReturnType<typeof useGuildJob>;
  setProblem: (problem: string | null) => void;
}

export function useQuestionActions({ guildId, stateKey, tracker, setProblem }: QuestionActionsInput) {
  const queryClient = useQueryClient();
  const [imported, setImported] = useState<string | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: stateKey });
  const failing = (failure: string) => ({
    onMutate: () => setProblem(null),
    // The API's sentence as it is (a 400 names the question and the option).
    onError: (error: unknown) => setProblem(errorText(error, failure)),
  });

  const save = useMutation({
    ...failing(PERSONALITY_FAILURES.save),
    mutationFn: (draft: QuestionDraft): Promise<PersonalityQuestion> =>
      draft.questionId === undefined
        ? apiCall('createPersonalityQuestion', { params: { guildId }, body: questionBody(draft) })
        : apiCall('updatePersonalityQuestion', {
            params: { guildId, questionId: draft.questionId },
            body: questionBody(draft),
          }),
    onSuccess: () => void reload(),
  });
  const order = useMutation({
    ...failing(PERSONALITY_FAILURES.order),
    mutationFn: (questionIds: number[]) =>
      apiCall('orderPersonalityQuestions', { params: { guildId }, body: { question_ids: questionIds } }),
    onSettled: () => void reload(),
  });
  const remove = useMutation({
    ...failing(PERSONALITY_FAILURES.remove),
    mutationFn: (vars: { questionId: number; deleteRoles: boolean }) =>
      apiCall('deletePersonalityQuestion', {
        params: { guildId, questionId: vars.questionId },
        query: { delete_roles: vars.deleteRoles ? 'true' : 'false' },
      }),
    onSuccess: (accepted) => {
      tracker.track(accepted.job_id);
      void reload();
    },
  });
  const importOnboarding = useMutation({
    ...failing(PERSONALITY_FAILURES.import),
    mutationFn: (): Promise<ImportOnboardingResult> =>
      apiCall('importPersonalityOnboarding', { params: { guildId } }),
    onMutate: () => {
      setProblem(null);
      setImported(null);
    },
    onSuccess: (result) => {
      setImported(importResultText(result));
      void reload();
    },
  });
  // What a confirmation counts members from: the page's 30 days (any period has the same holders).
  const countHolders = () =>
    queryClient
      .ensureQueryData({
        queryKey: insightsKey(guildId, 30),
        queryFn: () => apiCall('getPersonalityInsights', { params: { guildId }, query: { days: 30 } }),
      })
      .catch(() => undefined);
  return {
    save,
    order,
    remove,
    importOnboarding,
    imported,
    clearImported: () => setImported(null),
    countHolders,
  };
}

export type QuestionActions = ReturnType<typeof useQuestionActions>;
