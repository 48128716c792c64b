import type { JobResult } from '@spacecadet/contract';
import {
  loadPersonalityConfig,
  loadPersonalityQuestions,
  queuePersonalityCleanup,
  savePersonalityOnboardingPrompt,
} from '@spacecadet/db/queries/personality-roles';
import {
  type APIGuildOnboarding,
  type APIGuildOnboardingPrompt,
  type RESTPutAPIGuildOnboardingJSONBody,
  SnowflakeUtil,
} from 'discord.js';
import { DiscordCodes, discordApi, fetchGuildRoles, isDiscordError } from '../../discord-rest.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { NOT_INITIALIZED } from './generate.ts';
import {
  formErrorText,
  isUnrecordedPrompt,
  MAX_PROMPTS,
  type OnboardingQuestion,
  type PromptBody,
  promptBodyOf,
  samePrompt,
  samePrompts,
  wantedPrompt,
} from './onboarding-prompts.ts';
import { withWarnings } from './roles.ts';
import { matchRefreshSchedule } from './schedule.ts';

export const ONBOARDING_FORBIDDEN =
  'I need the Manage Server and Manage Roles permissions to edit Onboarding.';
const REQUIREMENTS = 'at least 7 default channels, 5 of which everyone can send messages in';
export const ONBOARDING_CANNOT_ENABLE = `Discord only turns Onboarding on with ${REQUIREMENTS}. Set the default channels in Server Settings → Onboarding, then try again.`;
export const ONBOARDING_BELOW_REQUIREMENTS = `Discord refuses any change to this server's Onboarding while it is below Discord's requirements (${REQUIREMENTS}). Fix the default channels in Server Settings → Onboarding, then try again.`;
const REASON = 'Space Cadet: personality questions in Onboarding';

export interface OnboardingOutcome {
  added: number;
  updated: number;
  removed: number;
  upToDate: number;
  /** Whether Discord's Onboarding was written (one PUT at most). */
  written: boolean;
  warnings: string[];
}

export function roleless(count: number): string {
  return `${count} option${count === 1 ? ' has' : 's have'} no role yet and ${count === 1 ? 'is' : 'are'} left out of Discord Onboarding: run Generate Roles first.`;
}

interface Plan {
  question: OnboardingQuestion;
  /** Our prompt as Discord has it now. */
  existing: APIGuildOnboardingPrompt | undefined;
  /** What it should be; null: no prompt for this question. */
  prompt: PromptBody | null;
}

/**
 * Makes the guild's Discord Onboarding hold one prompt per enabled question with roles when
 * `enabled` (each option granting the option's role, as its button does), and none of ours
 * otherwise; `retired` prompt ids (a reset's) are ours too and go. Every other prompt, and the
 * Onboarding's own settings (enabled, default channels, mode), are the admin's and are sent
 * back as read. Discord is written once, and only when the prompts would change, so a run with
 * nothing to do makes one GET. The prompt ids Discord answers are stored on the questions.
 */
export async function syncPersonalityOnboarding(
  context: JobContext,
  questions: readonly OnboardingQuestion[],
  enabled: boolean,
  more: { liveRoleIds?: ReadonlySet<string>; retired?: readonly string[] } = {},
): Promise<OnboardingOutcome> {
  const { client } = context.deps;
  const guildId = context.payload.guild_id;
  const api = discordApi(client);
  const current = await guarded(() => api.guilds.getOnboarding(guildId), []);
  const byId = new Map(current.prompts.map((prompt) => [prompt.id, prompt]));
  const retired = new Set(more.retired ?? []);
  const claimed = new Set([...retired, ...questions.flatMap((q) => q.onboardingPromptId ?? [])]);
  const outcome: OnboardingOutcome = {
    added: 0,
    updated: 0,
    removed: 0,
    upToDate: 0,
    written: false,
    warnings: [],
  };
  let missingRoles = 0;

  const plans = questions.map((question): Plan => {
    let existing = question.onboardingPromptId ? byId.get(question.onboardingPromptId) : undefined;
    if (!(enabled && question.isEnabled)) return { question, existing, prompt: null };
    if (!existing) {
      existing = current.prompts.find((p) => !claimed.has(p.id) && isUnrecordedPrompt(p, question));
      if (existing) claimed.add(existing.id);
    }
    const id = existing?.id ?? SnowflakeUtil.generate().toString();
    const wanted = wantedPrompt(question, id, existing, more.liveRoleIds);
    missingRoles += wanted.roleless;
    return { question, existing, prompt: wanted.prompt };
  });
  if (missingRoles > 0) outcome.warnings.push(roleless(missingRoles));
  const next = nextPrompts(current, plans, retired);

  countPlans(outcome, plans);
  outcome.removed += current.prompts.filter((prompt) => retired.has(prompt.id)).length;

  if (next.length > MAX_PROMPTS) {
    const ours = plans.filter((plan) => plan.prompt).length;
    throw new JobFailure(
      'invalid_input',
      `Discord Onboarding holds at most ${MAX_PROMPTS} questions: this server has ${next.length - ours} of its own and would get ${ours} personality questions. Disable some questions, then try again.`,
    );
  }

  let answered: APIGuildOnboarding = current;
  if (!samePrompts(current.prompts.map(promptBodyOf), next)) {
    const body: RESTPutAPIGuildOnboardingJSONBody = {
      prompts: next,
      default_channel_ids: current.default_channel_ids,
      enabled: current.enabled,
      mode: current.mode,
    };
    answered = await guarded(() => api.guilds.editOnboarding(guildId, body, { reason: REASON }), next);
    outcome.written = true;
  }

  await storePromptIds(context, plans, answered, next);
  return outcome;
}

/** The prompts to send: the admin's stay where they are, ours are replaced in place, new ones go last. */
function nextPrompts(
  current: APIGuildOnboarding,
  plans: readonly Plan[],
  retired: ReadonlySet<string>,
): PromptBody[] {
  const planOf = new Map(plans.flatMap((plan) => (plan.existing ? [[plan.existing.id, plan] as const] : [])));
  const next: PromptBody[] = [];
  for (const prompt of current.prompts) {
    const plan = planOf.get(prompt.id);
    if (plan?.prompt) next.push(plan.prompt);
    else if (!plan && !retired.has(prompt.id)) next.push(promptBodyOf(prompt));
  }
  for (const plan of plans) if (!plan.existing && plan.prompt) next.push(plan.prompt);
  return next;
}

/** Counts each question's prompt as added, removed, up to date or updated. */
function countPlans(outcome: OnboardingOutcome, plans: readonly Plan[]): void {
  for (const { existing, prompt } of plans) {
    if (!existing) outcome.added += prompt ? 1 : 0;
    else if (!prompt) outcome.removed += 1;
    else if (samePrompt(promptBodyOf(existing), prompt)) outcome.upToDate += 1;
    else outcome.updated += 1;
  }
}

/**
 * Stores on each question the id Discord answered for its prompt (none when it has no prompt);
 * a prompt whose question a reset removed meanwhile is queued to go.
 */
async function storePromptIds(
  context: JobContext,
  plans: readonly Plan[],
  answered: APIGuildOnboarding,
  next: readonly PromptBody[],
): Promise<void> {
  const { db } = context.deps;
  const guildId = context.payload.guild_id;
  for (const { question, prompt } of plans) {
    const promptId = prompt ? answeredId(answered, next, prompt) : null;
    if (promptId === question.onboardingPromptId) continue;
    if ((await savePersonalityOnboardingPrompt(db, question.id, promptId)) || !promptId) continue;
    // A reset removed the question while this run added its prompt: the prompt goes too.
    await queuePersonalityCleanup(db, {
      guildId,
      kind: 'onboarding',
      targetId: promptId,
      channelId: null,
      name: question.title,
    });
  }
}

/**
 * The id Discord gave a prompt we sent: Discord picks its own for a new prompt (the id sent is
 * only required, discord.js's note on editOnboarding), in the order sent.
 */
function answeredId(answered: APIGuildOnboarding, sent: readonly PromptBody[], prompt: PromptBody): string {
  const index = sent.indexOf(prompt);
  const same = answered.prompts[index];
  if (same && same.title === prompt.title) return same.id;
  return answered.prompts.find((p) => p.title === prompt.title)?.id ?? prompt.id;
}

/** Discord's answers a retry cannot fix, in words for the admin. */
async function guarded<T>(call: () => Promise<T>, sent: readonly PromptBody[]): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) {
      throw new JobFailure('forbidden', ONBOARDING_FORBIDDEN);
    }
    if (isDiscordError(error, DiscordCodes.CannotEnableOnboardingRequirementsAreNotMet)) {
      throw new JobFailure('invalid_input', ONBOARDING_CANNOT_ENABLE);
    }
    if (isDiscordError(error, DiscordCodes.CannotUpdateOnboardingWhileBelowRequirements)) {
      throw new JobFailure('invalid_input', ONBOARDING_BELOW_REQUIREMENTS);
    }
    if (isDiscordError(error, DiscordCodes.InvalidFormBodyOrContentType)) {
      throw new JobFailure(
        'invalid_input',
        `Discord refused the Onboarding questions: ${formErrorText(error.message, sent)}`,
      );
    }
    throw error;
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function onboardingSummary(outcome: OnboardingOutcome, enabled: boolean): string {
  const parts = (
    [
      [outcome.added, 'added'],
      [outcome.updated, 'updated'],
      [outcome.removed, 'removed'],
      [outcome.upToDate, 'already up to date'],
    ] as const
  ).filter(([n]) => n > 0);
  if (parts.length === 0) {
    return enabled
      ? 'Discord Onboarding: no enabled question has roles yet, nothing to ask.'
      : 'Discord Onboarding: no personality question was in it.';
  }
  const said = parts.map(([n, what], index) =>
    index === 0 ? `${plural(n, 'question')} ${what}` : `${n} ${what}`,
  );
  return `Discord Onboarding: ${said.join(', ')}.`;
}

/**
 * `personality-roles.onboarding`: makes Discord Onboarding match the stored "Also ask in
 * Discord Onboarding" (`syncPersonalityOnboarding`). An option whose role was deleted is left
 * out like one never generated; the refresh recreates the role and puts it back.
 */
export async function publishPersonalityOnboarding(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const config = await loadPersonalityConfig(db, guildId);
  if (!config.configured) throw new JobFailure('invalid_input', NOT_INITIALIZED);
  const [questions, roles] = await Promise.all([
    loadPersonalityQuestions(db, guildId),
    fetchGuildRoles(client, guildId),
  ]);
  await context.progress(20);
  const outcome = await syncPersonalityOnboarding(context, questions, config.onboardingEnabled, {
    liveRoleIds: new Set(roles.map((role) => role.id)),
  });
  await matchRefreshSchedule(context.deps, guildId, true);
  await context.progress(100);
  return withWarnings(
    { ok: true, summary: onboardingSummary(outcome, config.onboardingEnabled) },
    outcome.warnings,
  );
}
