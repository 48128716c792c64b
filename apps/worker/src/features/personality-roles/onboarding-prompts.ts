import type {
  StoredPersonalityOption,
  StoredPersonalityQuestion,
} from '@spacecadet/db/queries/personality-roles';
import {
  type APIGuildOnboardingPrompt,
  GuildOnboardingPromptType,
  type RESTAPIGuildOnboardingPrompt,
  type RESTAPIGuildOnboardingPromptOption,
} from 'discord.js';

/**
 * The personality questions as Discord Onboarding prompts, and prompts Discord has in the form
 * a PUT sends back, with no I/O: `onboarding.ts` reads, compares and writes.
 */

/** Discord's limits (the sandbox's, see packages/discord-sandbox/src/rest/onboarding.ts). */
export const MAX_PROMPTS = 15;
const MAX_OPTIONS = 50;
const PROMPT_TITLE_MAX = 100;
const OPTION_TITLE_MAX = 50;

export type PromptBody = RESTAPIGuildOnboardingPrompt;
type OptionBody = RESTAPIGuildOnboardingPromptOption;

/** What the sync needs of a question. */
export type OnboardingQuestion = Pick<
  StoredPersonalityQuestion,
  'id' | 'title' | 'isEnabled' | 'isMultiSelect' | 'onboardingPromptId' | 'options'
>;

/** A prompt Discord has, as a PUT body sends it to keep it exactly as it is. */
export function promptBodyOf(prompt: APIGuildOnboardingPrompt): PromptBody {
  return {
    id: prompt.id,
    title: prompt.title,
    single_select: prompt.single_select,
    required: prompt.required,
    in_onboarding: prompt.in_onboarding,
    type: prompt.type,
    options: prompt.options.map((option) => ({
      id: option.id,
      title: option.title,
      description: option.description ?? null,
      emoji_id: option.emoji?.id ?? null,
      emoji_name: option.emoji?.name ?? null,
      emoji_animated: option.emoji?.animated ?? false,
      role_ids: option.role_ids,
      channel_ids: option.channel_ids,
    })),
  };
}

/** A stored emoji: a unicode one, or a custom one written `<:name:id>` / `<a:name:id>`. */
function emojiFields(emoji: string | null): Pick<OptionBody, 'emoji_id' | 'emoji_name' | 'emoji_animated'> {
  const custom = emoji ? /^<(a?):(\w+):(\d+)>$/.exec(emoji) : null;
  if (custom)
    return { emoji_id: custom[3] ?? null, emoji_name: custom[2] ?? null, emoji_animated: !!custom[1] };
  return { emoji_id: null, emoji_name: emoji || null, emoji_animated: false };
}

export interface WantedPrompt {
  /** Null when the question has no option with a role to hand out. */
  prompt: PromptBody | null;
  /** Options left out because they have no (live) role yet. */
  roleless: number;
}

/**
 * The prompt for an enabled question (a template's or the server's own): one option per option
 * with a role, granting that role and opening the option's channels, titled like the button (truncated to Discord's lengths). An option of `existing` (our prompt
 * as Discord has it) keeps its id when it grants the same role, so answers stay attached.
 */
export function wantedPrompt(
  question: OnboardingQuestion,
  id: string,
  existing: APIGuildOnboardingPrompt | undefined,
  liveRoleIds?: ReadonlySet<string>,
): WantedPrompt {
  const withRole = question.options.filter(
    (option): option is StoredPersonalityOption & { roleId: string } =>
      option.roleId !== null && (!liveRoleIds || liveRoleIds.has(option.roleId)),
  );
  const roleless = question.options.length - withRole.length;
  if (withRole.length === 0) return { prompt: null, roleless };
  const options = withRole.slice(0, MAX_OPTIONS).map((option): OptionBody => {
    const kept = existing?.options.find((o) => o.role_ids.length === 1 && o.role_ids[0] === option.roleId);
    return {
      ...(kept ? { id: kept.id } : {}),
      title: option.label.slice(0, OPTION_TITLE_MAX),
      // An adopted prompt (imported from the server's Onboarding) keeps what the admin wrote.
      description: kept?.description || null,
      ...emojiFields(option.emoji),
      role_ids: [option.roleId],
      // Discord only accepts its own guild's channels here: the PUT is the check.
      channel_ids: [...option.channelIds],
    };
  });
  return {
    prompt: {
      id,
      title: question.title.slice(0, PROMPT_TITLE_MAX),
      single_select: !question.isMultiSelect,
      // Whether answering is required is the admin's choice in Discord (an imported prompt's too).
      required: existing?.required ?? false,
      in_onboarding: true,
      type: GuildOnboardingPromptType.MultipleChoice,
      options,
    },
    roleless,
  };
}

/**
 * A prompt a run killed between Discord's answer and storing its id left behind (Discord picks
 * a new prompt's id, so it is not the one the run sent): the question's title, and only roles
 * of the question's options. Adopted instead of adding a second one.
 */
export function isUnrecordedPrompt(prompt: APIGuildOnboardingPrompt, question: OnboardingQuestion): boolean {
  const roles = new Set(question.options.flatMap((option) => option.roleId ?? []));
  const granted = prompt.options.flatMap((option) => option.role_ids);
  return (
    prompt.title === question.title.slice(0, PROMPT_TITLE_MAX) &&
    granted.length > 0 &&
    granted.every((id) => roles.has(id))
  );
}

/**
 * What the members see of the prompts, in order: equal means a PUT would change nothing.
 * Option ids are left out (a new option has none until Discord gives it one), as are the
 * defaults Discord fills in for a missing field.
 */
function normalized(prompts: readonly PromptBody[]): string {
  return JSON.stringify(
    prompts.map((prompt) => ({
      id: prompt.id,
      title: prompt.title,
      single_select: prompt.single_select ?? false,
      required: prompt.required ?? false,
      in_onboarding: prompt.in_onboarding ?? false,
      type: prompt.type ?? GuildOnboardingPromptType.MultipleChoice,
      options: prompt.options.map((option) => ({
        title: option.title,
        description: option.description || null,
        emoji_id: option.emoji_id ?? null,
        emoji_name: option.emoji_name || null,
        emoji_animated: option.emoji_animated ?? false,
        role_ids: [...(option.role_ids ?? [])].sort(),
        channel_ids: [...(option.channel_ids ?? [])].sort(),
      })),
    })),
  );
}

export function samePrompts(a: readonly PromptBody[], b: readonly PromptBody[]): boolean {
  return normalized(a) === normalized(b);
}

export function samePrompt(a: PromptBody, b: PromptBody): boolean {
  return samePrompts([a], [b]);
}

/**
 * Discord's 50035 field errors in words: `prompts[3].options[1].title[BASE_TYPE_BAD_LENGTH]:
 * Must be ...` (discord.js's flattened form) becomes `"Zodiac Sign" options[1].title: Must be ...`.
 */
export function formErrorText(message: string, prompts: readonly PromptBody[]): string {
  const lines = message.split('\n').slice(1);
  const fields = lines.map((line) =>
    line
      .replace(/^prompts\[(\d+)\]\.?/, (whole, index: string) => {
        const title = prompts[Number(index)]?.title;
        return title ? `"${title}" ` : whole;
      })
      .replace(/\[[A-Z0-9_]+\]:/, ':'),
  );
  return fields.length > 0 ? fields.join('; ') : message;
}
