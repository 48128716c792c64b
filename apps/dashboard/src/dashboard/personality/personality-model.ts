import { PERSONALITY_QUESTION_TYPES, type PersonalityQuestion } from '@spacecadet/contract';
import { personalityQuestion } from '@spacecadet/core';

export const PERSONALITY_RESET_CONFIRM =
  'This will remove all personality role questions, options, and message IDs for this server. Continue?';
export const PLEASE_SELECT_CHANNEL = 'Please select a channel first';
export const REFRESH_NOTE = 'Roles are auto-created and refreshed every 5 minutes.';

export const PERSONALITY_FAILURES = {
  load: 'Failed to load data',
  init: 'Failed to initialize personality roles',
  channel: 'Failed to update channel',
  toggle: 'Failed to toggle question',
  generate: 'Failed to generate roles',
  post: 'Failed to post/update messages',
  reset: 'Failed to reset personality roles',
} as const;

const KNOWN_TYPES = new Set<string>(PERSONALITY_QUESTION_TYPES);

export interface QuestionView {
  type: string;
  title: string;
  description: string;
  roleCount: number;
  multi: boolean;
  enabled: boolean;
}

/** Known categories only (unknown types are hidden), titled from the API or core's catalog. */
export function questionViews(questions: readonly PersonalityQuestion[]): QuestionView[] {
  return questions
    .filter((question) => KNOWN_TYPES.has(question.question_type))
    .map((question) => {
      const catalog = personalityQuestion(question.question_type);
      return {
        type: question.question_type,
        title: question.title ?? catalog?.title ?? question.question_type,
        description: question.description ?? catalog?.description ?? '',
        roleCount: question.role_count,
        multi: question.is_multi_select,
        enabled: question.is_enabled,
      };
    });
}
