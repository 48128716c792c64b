/** The leveling settings form's state and its Save: what is typed, what is stored, clamp notes, messages. */
import type { LevelingSettings as Settings } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText, isApiError } from '../../lib/api-error.ts';
import { queryKeys } from '../shared/queries.ts';
import {
  clampNotes,
  type SettingsForm as Form,
  LEVELING_FAILURES,
  type NumberSetting,
  submittedNumber,
  submittedVoiceNumbers,
  toForm,
} from './leveling-model.ts';
import { NUMBER_ISSUE_KEYS, numberIssues, submittedNumbers } from './numbers-model.ts';

export type Notes = Partial<Record<NumberSetting, string>>;

/** Sets one form field (and drops that field's clamp note). */
export type SetField = <K extends keyof Form>(key: K) => (value: Form[K]) => void;

/** Fields whose 400 is said under the field itself rather than in the red box. */
const FIELD_ISSUES = [
  'announcement_channel',
  'daily_overview_channel',
  'no_xp_channels',
  'no_xp_roles',
  'level_up_message',
  'level_up_destination',
  ...NUMBER_ISSUE_KEYS,
] as const;

export type FieldIssueKey = (typeof FIELD_ISSUES)[number];

/** A refusal's sentence for a field or anything inside it (`level_curve.a`, `xp_decay.percent_per_week`). */
function apiIssue(error: unknown, key: FieldIssueKey): string | null {
  if (!isApiError(error)) return null;
  return error.issues.find(({ path }) => path === key || path.startsWith(`${key}.`))?.message ?? null;
}

export function useSettingsForm(guildId: string, initial: Settings) {
  const queryClient = useQueryClient();
  const levelingKey = queryKeys.leveling(guildId);
  const [form, setForm] = useState<Form>(() => toForm(initial));
  // The settings as last stored (the page's load, a save's or a reset's answer).
  const [stored, setStored] = useState<Settings>(initial);
  // Why a saved number was stored differently from what was typed (the API clamps).
  const [notes, setNotes] = useState<Notes>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set: SetField = (key) => (value) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (key in notes) setNotes(({ [key as NumberSetting]: _, ...rest }) => rest);
  };
  const reload = () => queryClient.invalidateQueries({ queryKey: levelingKey });

  // Changing any leveling setting also sends enabled: true.
  const save = useMutation({
    mutationFn: async () => {
      const submitted = {
        xp_multiplier: submittedNumber('xp_multiplier', form.xp_multiplier),
        xp_min: submittedNumber('xp_min', form.xp_min),
        xp_max: submittedNumber('xp_max', form.xp_max),
        message_cooldown_sec: submittedNumber('message_cooldown_sec', form.message_cooldown_sec),
      };
      const saved = await apiCall('putLeveling', {
        params: { guildId },
        body: {
          enabled: true,
          ...submitted,
          announcement_channel: form.announcement_channel.trim() || null,
          daily_overview_channel: form.daily_overview_channel.trim() || null,
          no_xp_channels: form.no_xp_channels,
          no_xp_roles: form.no_xp_roles,
          level_up_message: form.level_up_message,
          // Sent when changed: a server still on the old default (channel, with none set) can save
          // its other settings; choosing "channel" without a channel is refused at this field.
          ...(form.level_up_destination !== stored.level_up_destination
            ? { level_up_destination: form.level_up_destination }
            : {}),
          reward_mode: form.reward_mode,
          leaderboard_visibility: form.leaderboard_visibility,
          ...submittedVoiceNumbers(form),
          ...submittedNumbers(form, stored.level_curve),
        },
      });
      return { submitted, saved };
    },
    onMutate: () => {
      setProblem(null);
      setDone(null);
    },
    // A refused field (a channel the bot cannot post in, a destination without its channel) is
    // said next to that field; anything else on top.
    onError: (error: unknown) => {
      if (!FIELD_ISSUES.some((key) => apiIssue(error, key))) {
        setProblem(errorText(error, LEVELING_FAILURES.save));
      }
    },
    onSuccess: ({ submitted, saved }) => {
      // The form shows what was stored, and says so where that differs from what was typed.
      setForm(toForm(saved));
      setStored(saved);
      setNotes(clampNotes(submitted, saved));
      void reload();
    },
  });
  /** After a reset: the form shows the settings the reset left, with `message` beside the buttons. */
  const afterReset = (settings: Settings, message: string) => {
    setForm(toForm(settings));
    setStored(settings);
    setNotes({});
    save.reset();
    setDone(message);
    void reload();
  };
  // The numbers are checked as typed (the API's own sentences): a crossed range or a curve
  // that does not parse is said at its field at once, and Save sends nothing until it is fixed.
  const local: Partial<Record<FieldIssueKey, string>> = numberIssues(form);
  const blocked = Object.keys(local).length > 0;
  /** What is wrong with one field as typed, else what the last Save's refusal said about it. */
  const issue = (key: FieldIssueKey) => local[key] ?? (save.isError ? apiIssue(save.error, key) : null);
  const [refused, setRefused] = useState(false);
  const submit = () => {
    setRefused(blocked);
    if (!blocked) save.mutate();
  };

  return {
    form,
    stored,
    notes,
    set,
    save,
    submit,
    /** Save was pressed while a field is wrong: nothing was sent. */
    refused: refused && blocked,
    issue,
    afterReset,
    problem,
    setProblem,
    done,
    setDone,
  };
}

export type SettingsFormState = ReturnType<typeof useSettingsForm>;
