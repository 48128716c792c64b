import {
  type JobStatus,
  OWN_QUESTION_KEY,
  PERSONALITY_QUESTION_TYPES,
  type PersonalityQuestion,
  type PersonalityRolesState,
} from '@spacecadet/contract';
import { PERSONALITY_CATALOG, personalityQuestion } from '@spacecadet/core';
import { jobResultOf } from '../shared/jobs/job-model.ts';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The Initialize card's choices: every catalog category, all on by default. */
export const INIT_CATEGORIES = PERSONALITY_CATALOG.map((question) => ({
  type: question.questionType,
  title: question.title,
  roleCount: question.options.length,
}));
export const CHOOSE_CATEGORY = 'Choose at least one category';

/** "2 of 10 categories · 17 roles will be created" for the Initialize card's choice. */
export function initChoiceText(chosen: ReadonlySet<string>): string {
  const roles = INIT_CATEGORIES.filter((c) => chosen.has(c.type)).reduce((n, c) => n + c.roleCount, 0);
  return `${chosen.size} of ${count(INIT_CATEGORIES.length, 'category', 'categories')} · ${count(roles, 'role')} will be created`;
}

/**
 * Reset's confirmation: what it deletes in Discord and here, with counts (the API answers
 * each question's created roles, posted message and Onboarding prompt).
 */
export function resetConfirmText(questions: readonly PersonalityQuestion[]): string {
  const roles = questions.reduce((n, q) => n + (q.created_roles ?? 0), 0);
  // A disabled question's message is already on its way out (its toggle queued the refresh
  // that removes it): what the reset deletes is the enabled ones'.
  const messages = questions.filter((q) => q.is_enabled && q.message_posted).length;
  const prompts = questions.filter((q) => q.in_onboarding).length;
  const inDiscord =
    roles + messages > 0
      ? `deletes ${count(roles, 'role')} and ${count(messages, 'message')} in Discord`
      : 'deletes nothing in Discord (no role or message was made yet)';
  const onboarding = prompts > 0 ? `, removes ${count(prompts, 'question')} from Discord Onboarding,` : '';
  return `Reset personality roles for this server? This ${inDiscord}${onboarding} and removes the ${count(questions.length, 'question category', 'question categories')} with their options. Continue?`;
}

/** Asked after a category with roles was disabled (its message goes either way). */
export function deleteRolesConfirmText(title: string, roles: number): string {
  return `${title} is disabled and its message will be removed. Delete the ${count(roles, 'role')} of ${title} in Discord too? Members lose them; Cancel keeps them.`;
}
export const PLEASE_SELECT_CHANNEL = 'Please select a channel first';
export const REFRESH_NOTE = 'Roles are auto-created and refreshed every 5 minutes.';
export const NO_REFRESH_YET = 'No refresh has run yet.';
/** How often the page re-reads its state, so the last refresh (every 5 minutes) stays current. */
export const STATE_REFETCH_MS = 60_000;
/** How often "3 minutes ago" is worked out again. */
export const CLOCK_TICK_MS = 30_000;

export const PERSONALITY_FAILURES = {
  load: 'Failed to load data',
  init: 'Failed to initialize personality roles',
  channel: 'Failed to update channel',
  toggle: 'Failed to toggle question',
  generate: 'Failed to generate roles',
  post: 'Failed to post/update messages',
  reset: 'Failed to reset personality roles',
  onboarding: 'Failed to update Discord Onboarding',
  deleteRoles: 'Failed to delete the roles',
  save: 'Failed to save the question',
  order: 'Failed to reorder the questions',
  remove: 'Failed to remove the question',
  import: 'Failed to import from Discord Onboarding',
  insights: 'Failed to load insights',
} as const;

export const ONBOARDING_SWITCH_LABEL = 'Also ask in Discord Onboarding';
export const ONBOARDING_NOTE =
  'New members answer the enabled questions while they join the server and get the same roles as from the buttons (I need the Manage Server permission for it).';

/** The Onboarding switch's note when the bot lacks what Onboarding needs (e.g. Manage Server). */
export function missingPermissionText(missing: readonly string[]): string {
  const names = missing.join(' and ');
  return `Discord Onboarding needs the ${names} permission${missing.length === 1 ? '' : 's'}, which I don't have here.`;
}

const KNOWN_TYPES = new Set<string>(PERSONALITY_QUESTION_TYPES);

export interface QuestionView {
  /** The question's row (what …/questions/{questionId} names). */
  id: number;
  type: string;
  /** True for a question of the admin's own (`q<id>`), false for one added from a template. */
  own: boolean;
  /** The question as the API answered it (the editor starts from it). */
  question: PersonalityQuestion;
  title: string;
  description: string;
  roleCount: number;
  multi: boolean;
  enabled: boolean;
  /** Roles the bot made for it (what "delete its roles" deletes). */
  createdRoles: number;
}

/**
 * Built-in categories and own questions (`q<id>`) in stored order (other types are hidden),
 * titled from the API or core's catalog.
 */
export function questionViews(questions: readonly PersonalityQuestion[]): QuestionView[] {
  return questions
    .filter(
      (question) => KNOWN_TYPES.has(question.question_type) || OWN_QUESTION_KEY.test(question.question_type),
    )
    .map((question) => {
      const catalog = personalityQuestion(question.question_type);
      return {
        id: question.question_id,
        type: question.question_type,
        own: OWN_QUESTION_KEY.test(question.question_type),
        question,
        title: question.title ?? catalog?.title ?? question.question_type,
        description: question.description ?? catalog?.description ?? '',
        roleCount: question.role_count,
        multi: question.is_multi_select,
        enabled: question.is_enabled,
        createdRoles: question.created_roles ?? 0,
      };
    });
}

export type LastRefresh = NonNullable<PersonalityRolesState['last_refresh']>;

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** "just now", "3 minutes ago", "2 hours ago", "4 days ago"; a time ahead of `now` is just now. */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return 'at an unknown time';
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return RELATIVE.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return RELATIVE.format(-hours, 'hour');
  return RELATIVE.format(-Math.floor(hours / 24), 'day');
}

/** The worker's summary as the end of a sentence. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Each job's failure when it says nothing itself. */
const JOB_FAILURES: Readonly<Record<string, string>> = {
  'personality-roles.generate': PERSONALITY_FAILURES.generate,
  'personality-roles.post': PERSONALITY_FAILURES.post,
  'personality-roles.reset': PERSONALITY_FAILURES.reset,
  'personality-roles.onboarding': PERSONALITY_FAILURES.onboarding,
  'personality-roles.delete-roles': PERSONALITY_FAILURES.deleteRoles,
};

/**
 * What the error box says about a finished job that did not do its work: the job's own message
 * (a failure, or a result with ok false), else the job's fallback. Null while it runs, when it
 * succeeded, and for a lost job (JobProgress offers to run that one again).
 */
export function jobFailureText(job: JobStatus | undefined): string | null {
  if (!job) return null;
  const fallback = JOB_FAILURES[job.name] ?? 'The job failed';
  if (job.state === 'failed') return job.error?.trim() || fallback;
  const result = jobResultOf(job);
  if (job.state === 'completed' && result && !result.ok) return result.summary.trim() || fallback;
  return null;
}
