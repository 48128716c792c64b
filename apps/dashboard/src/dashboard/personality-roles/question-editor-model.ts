/**
 * The question editor's draft and what the page says around it: a stored question as a draft,
 * the draft as the API's body, what an edit removes, and the sentences of its confirmations,
 * of an Onboarding import and of the insights.
 */
import {
  type ImportOnboardingResult,
  type PersonalityInsights,
  type PersonalityQuestion,
  type PersonalityQuestionBody,
  QUESTION_DESCRIPTION_MAX,
  QUESTION_MAX_OPTIONS,
  QUESTION_OPTION_LABEL_MAX,
  QUESTION_OPTION_MAX_CHANNELS,
  QUESTION_TITLE_MAX,
} from '@spacecadet/contract';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface OptionDraft {
  /** React's key: stays with the option while it moves. */
  key: string;
  /** The stored option's id (absent for an option added in the editor). */
  optionId?: number;
  label: string;
  emoji: string;
  /** '' for "Create a role for me". */
  roleId: string;
  /** Whether the bot created the stored option's role (what removing the option deletes). */
  roleCreated: boolean;
  channelIds: string[];
}

export interface QuestionDraft {
  /** The stored question's id; absent for a new one. */
  questionId?: number;
  questionType: string;
  title: string;
  description: string;
  multi: boolean;
  options: OptionDraft[];
}

let nextKey = 0;
const freshKey = () => `new-${++nextKey}`;

export function emptyOptionDraft(): OptionDraft {
  return { key: freshKey(), label: '', emoji: '', roleId: '', roleCreated: false, channelIds: [] };
}

/** A new question: two blank options to start from. */
export function newQuestionDraft(): QuestionDraft {
  return {
    questionType: 'new',
    title: '',
    description: '',
    multi: false,
    options: [emptyOptionDraft(), emptyOptionDraft()],
  };
}

/** A stored question (built-in or own) as the editor's draft. */
export function questionDraft(
  question: PersonalityQuestion,
  title: string,
  description: string,
): QuestionDraft {
  return {
    questionId: question.question_id,
    questionType: question.question_type,
    title,
    description,
    multi: question.is_multi_select,
    options: question.options.map((option) => ({
      key: `o${option.option_id}`,
      optionId: option.option_id,
      label: option.label,
      emoji: option.emoji ?? '',
      // A role the bot created stays the option's own: "Create a role for me" keeps it.
      roleId: option.role_created ? '' : (option.role_id ?? ''),
      roleCreated: option.role_created,
      channelIds: [...option.channel_ids],
    })),
  };
}

/** The draft as the API takes it: stored options by id, "Create a role for me" as no role. */
export function questionBody(draft: QuestionDraft): PersonalityQuestionBody {
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    is_multi_select: draft.multi,
    options: draft.options.map((option) => ({
      ...(option.optionId === undefined ? {} : { option_id: option.optionId }),
      label: option.label.trim(),
      emoji: option.emoji.trim() === '' ? null : option.emoji.trim(),
      role_id: option.roleId === '' ? null : option.roleId,
      channel_ids: option.channelIds,
    })),
  };
}

/** Stored options the draft no longer has whose role the bot created: saving deletes those roles. */
export function removedCreatedOptions(
  stored: PersonalityQuestion | undefined,
  draft: QuestionDraft,
): PersonalityQuestion['options'] {
  if (!stored) return [];
  const kept = new Set(draft.options.map((option) => option.optionId).filter((id) => id !== undefined));
  return stored.options.filter((option) => option.role_created && !kept.has(option.option_id));
}

export const LIMITS_NOTE = `Up to ${QUESTION_MAX_OPTIONS} options (Discord's limit); a title of ${QUESTION_TITLE_MAX} characters, a description of ${QUESTION_DESCRIPTION_MAX}, labels of ${QUESTION_OPTION_LABEL_MAX}; ${QUESTION_OPTION_MAX_CHANNELS} channels an option.`;
export const OPTION_LIMIT_NOTE = `A question has at most ${QUESTION_MAX_OPTIONS} options (Discord's limit).`;
export const CREATE_ROLE = 'Create a role for me';
/** A stored option whose role the bot made: it keeps that role (not an admin's choice). */
export const KEEP_MY_ROLE = 'The role I made for it';

/** Saving an edit that removes options with roles the bot made: how many members lose them. */
export function removeOptionsConfirmText(
  title: string,
  removed: ReadonlyArray<{ label: string }>,
  holders: number | null,
): string {
  const names = removed.map((option) => `"${option.label}"`).join(', ');
  const who =
    holders === null
      ? 'The number of members holding them could not be read.'
      : `${count(holders, 'member holds', 'members hold')} ${removed.length === 1 ? 'it' : 'them'} now and will lose ${removed.length === 1 ? 'it' : 'them'}.`;
  return `Saving ${title} removes ${count(removed.length, 'option')} (${names}) and deletes the ${removed.length === 1 ? 'role' : 'roles'} I created for ${removed.length === 1 ? 'it' : 'them'} in Discord. ${who}`;
}

/** Removing a question: its message goes, and how many members hold its answers. */
export function removeQuestionText(title: string, holders: number | null): string {
  const who =
    holders === null
      ? 'The number of members holding its answers could not be read.'
      : `${count(holders, 'member holds', 'members hold')} its answers.`;
  return `Remove the question ${title}? Its message is deleted from the channel. ${who}`;
}

export function deleteRolesChoice(roles: number): string {
  return `Also delete the ${count(roles, 'role')} I created for it in Discord (members lose ${roles === 1 ? 'it' : 'them'})`;
}

/** What an Onboarding import did, in plain sentences. */
export function importResultText(result: ImportOnboardingResult): string {
  const made = result.question_ids.length;
  const first =
    made === 0
      ? 'No Onboarding question was imported.'
      : `Imported ${count(made, 'question')} from Discord Onboarding.`;
  if (result.skipped.length === 0) return first;
  const skipped = result.skipped
    .map((item) => `"${item.title}" (${item.reason.replace(/\.$/, '')})`)
    .join('; ');
  return `${first} Skipped ${count(result.skipped.length, 'question')}: ${skipped}.`;
}

export type InsightQuestion = PersonalityInsights['questions'][number];
export type InsightOption = InsightQuestion['options'][number];

/** An option's figures as words: "3 picked, 1 dropped · 120 XP per member · 75% still here after 7 days". */
export function insightDetail(option: InsightOption): string {
  const xp = Math.round(option.xp_per_member);
  const still =
    option.still_here_after_7_days === null
      ? 'no new member to follow yet'
      : `${Math.round(option.still_here_after_7_days * 100)}% of new members still here after 7 days`;
  return `${option.picked} picked, ${option.unpicked} dropped · ${xp} XP per member · ${still}`;
}

export function stillHereText(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 100)}%`;
}

/** Members holding any answer of the question, from the insights (null when unknown). */
export function questionHolders(
  insights: PersonalityInsights | undefined,
  questionId: number,
): number | null {
  const question = insights?.questions.find((item) => item.question_id === questionId);
  return question ? question.answered : null;
}

/** Members holding the given options, summed (null when unknown). */
export function optionHolders(
  insights: PersonalityInsights | undefined,
  questionId: number,
  optionIds: readonly number[],
): number | null {
  const question = insights?.questions.find((item) => item.question_id === questionId);
  if (!question) return null;
  const ids = new Set(optionIds);
  return question.options.filter((option) => ids.has(option.option_id)).reduce((n, o) => n + o.holders, 0);
}

export const INSIGHT_DAYS = [7, 30, 90] as const;
