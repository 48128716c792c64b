/** The Welcome page's state: the settings as edited, as stored, and the Save that sends the changes. */
import type { PutWelcomeBody, WelcomeSettings } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { queryKeys } from '../shared/queries.ts';

export const WELCOME_FAILURES = {
  load: 'Could not load the welcome settings',
  save: 'Could not save the welcome settings',
} as const;

export function useWelcome(guildId: string) {
  return useQuery({
    queryKey: queryKeys.welcome(guildId),
    queryFn: () => apiCall('getWelcome', { params: { guildId } }),
  });
}

/** Sets one setting. */
export type SetWelcome = <K extends keyof WelcomeSettings>(key: K) => (value: WelcomeSettings[K]) => void;

/** Only the settings that differ from the stored ones (the PUT is partial). */
export function changedSettings(form: WelcomeSettings, stored: WelcomeSettings): PutWelcomeBody {
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(form) as (keyof WelcomeSettings)[]) {
    if (JSON.stringify(form[key]) !== JSON.stringify(stored[key])) body[key] = form[key];
  }
  return body as PutWelcomeBody;
}

export function useWelcomeForm(guildId: string, initial: WelcomeSettings) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<WelcomeSettings>(initial);
  const [stored, setStored] = useState<WelcomeSettings>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const set: SetWelcome = (key) => (value) => setForm((current) => ({ ...current, [key]: value }));
  const changes = changedSettings(form, stored);

  const save = useMutation({
    mutationFn: () => apiCall('putWelcome', { params: { guildId }, body: changedSettings(form, stored) }),
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(errorText(error, WELCOME_FAILURES.save)),
    onSuccess: (saved) => {
      setForm(saved);
      setStored(saved);
      queryClient.setQueryData(queryKeys.welcome(guildId), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.history(guildId) });
    },
  });
  return { form, stored, set, save, problem, setProblem, dirty: Object.keys(changes).length > 0 };
}

export type WelcomeFormState = ReturnType<typeof useWelcomeForm>;
