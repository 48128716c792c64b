import {
  type ImportOnboardingResult,
  type PersonalityInsights,
  QUESTION_MAX_OPTIONS,
  QUESTION_OPTION_LABEL_MAX,
  QUESTION_TITLE_MAX,
  QUESTIONS_MAX,
} from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import { loadPersonalityInsights } from '@spacecadet/db/queries/personality-insights';
import {
  insertPersonalityQuestion,
  type QuestionValues,
  questionsByPrompt,
} from '@spacecadet/db/queries/personality-questions';
import { loadPersonalityConfig, setPersonalityOnboarding } from '@spacecadet/db/queries/personality-roles';
import { ApiError } from '../errors.ts';
import type { AppServices } from './container.ts';
import { DiscordError } from './discord.ts';
import type { DiscordOnboarding } from './discord-answers.ts';
import { discordFailure } from './guild-resource-answers.ts';
import { enqueueGuildJob, type JobRequester } from './jobs.ts';
import { INITIALIZE_FIRST_MESSAGE } from './personality-roles.ts';

/**
 * The server's Discord Onboarding prompts imported as questions, and the insights screen's
 * numbers (read from the database only, no Discord request).
 */

type Prompt = DiscordOnboarding['prompts'][number];

export const NEEDS_MANAGE_SERVER =
  "I can't read this server's Onboarding: give my role Manage Server in Server Settings → Roles, then import again.";

/** An Onboarding option's emoji as a question stores it: `<:name:id>` or the emoji itself. */
function emojiText(emoji: Prompt['options'][number]['emoji']): string | null {
  if (!emoji) return null;
  if (emoji.id && emoji.name) return `<${emoji.animated ? 'a' : ''}:${emoji.name}:${emoji.id}>`;
  return emoji.name || null;
}

/** A prompt as a question, or why it stays a prompt only. */
function promptQuestion(prompt: Prompt): { values: QuestionValues } | { reason: string } {
  const name = `Prompt "${prompt.title}"`;
  if (prompt.options.length === 0) return { reason: `${name} has no options` };
  if (prompt.options.length > QUESTION_MAX_OPTIONS) {
    return {
      reason: `${name} has ${prompt.options.length} options; a question has at most ${QUESTION_MAX_OPTIONS}`,
    };
  }
  for (const option of prompt.options) {
    if (option.role_ids.length > 1) {
      return {
        reason: `${name}, option "${option.title}" gives ${option.role_ids.length} roles; an option of a question gives one`,
      };
    }
  }
  return {
    values: {
      title: prompt.title.slice(0, QUESTION_TITLE_MAX),
      description: '',
      isMultiSelect: !prompt.single_select,
      options: prompt.options.map((option) => {
        const roleId = option.role_ids[0] ?? null;
        return {
          label: option.title.slice(0, QUESTION_OPTION_LABEL_MAX),
          emoji: emojiText(option.emoji),
          roleId,
          roleChosen: roleId !== null,
          channelIds: option.channel_ids,
        };
      }),
    },
  };
}

/**
 * Makes one question per prompt not yet linked to a question (linked to it, so the Onboarding
 * sync adopts the prompt rather than adding a second), turns "Also ask in Discord Onboarding" on
 * (else the sync would remove the adopted prompts) and queues the Onboarding job.
 */
export async function importOnboarding(
  services: Pick<AppServices, 'db' | 'queue' | 'discord'>,
  guildId: string,
  requester: JobRequester,
): Promise<ImportOnboardingResult> {
  const { db } = services;
  if (!(await loadPersonalityConfig(db, guildId)).configured) {
    throw new ApiError('invalid_input', INITIALIZE_FIRST_MESSAGE);
  }
  let onboarding: DiscordOnboarding;
  try {
    onboarding = await services.discord.getGuildOnboarding(guildId);
  } catch (error) {
    // Reading Onboarding while it is off needs Manage Server (what the Onboarding switch needs too).
    if (error instanceof DiscordError && error.status === 403 && error.discordCode === 50013) {
      throw new ApiError('invalid_input', NEEDS_MANAGE_SERVER);
    }
    throw discordFailure(error, 'the Onboarding prompts');
  }
  const linked = await questionsByPrompt(db, guildId);
  const result: ImportOnboardingResult = { question_ids: [], skipped: [] };
  for (const prompt of onboarding.prompts) {
    const known = linked.get(prompt.id);
    if (known !== undefined) {
      result.question_ids.push(known);
      continue;
    }
    const made = promptQuestion(prompt);
    if ('reason' in made) {
      result.skipped.push({ title: prompt.title, reason: made.reason });
      continue;
    }
    const created = await insertPersonalityQuestion(db, guildId, made.values, {
      max: QUESTIONS_MAX,
      promptId: prompt.id,
    });
    if (created.outcome === 'created') result.question_ids.push(created.id);
    else if (created.outcome === 'too_many') {
      result.skipped.push({
        title: prompt.title,
        reason: `Prompt "${prompt.title}": a server has at most ${QUESTIONS_MAX} questions`,
      });
    } else throw new ApiError('invalid_input', INITIALIZE_FIRST_MESSAGE);
  }
  await setPersonalityOnboarding(db, guildId, true);
  await enqueueGuildJob(services.queue, 'personality-roles.onboarding', guildId, requester, {
    afterChange: true,
  });
  return result;
}

/** The insights screen over the last `days` days. */
export async function readInsights(db: Db, guildId: string, days: number): Promise<PersonalityInsights> {
  const questions = await loadPersonalityInsights(db, guildId, days);
  return {
    days,
    questions: questions.map((question) => ({
      question_id: question.questionId,
      title: question.title,
      answered: question.answered,
      options: question.options.map((option) => ({
        option_id: option.optionId,
        label: option.label,
        role_id: option.roleId,
        holders: option.holders,
        picked: option.picked,
        unpicked: option.unpicked,
        xp_per_member: option.holders === 0 ? 0 : option.holdersXp / option.holders,
        still_here_after_7_days: option.newcomers === 0 ? null : option.stayed / option.newcomers,
      })),
    })),
  };
}
