import { lastPersonalityPickKey, memberPickLockKey } from '@spacecadet/contract';
import {
  PERSONALITY_CUSTOM_ID_PREFIX,
  type PersonalityAction,
  parsePersonalityCustomId,
} from '@spacecadet/core';
import { personalityPickScope } from '@spacecadet/db/queries/member-picks';
import {
  loadPersonalityQuestion,
  type StoredPersonalityQuestion,
} from '@spacecadet/db/queries/personality-roles';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import { escapeMarkdown, PermissionFlagsBits } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import {
  clickMemberRoleIds,
  lastPickWins,
  MEMBER_PICK_LOCK_TTL_MS,
  registerPickFeature,
} from '../../interactions/member-lock.ts';
import { answerEphemeral, type DeferFirst, type EphemeralAnswer } from '../../interactions/respond.ts';
import type { ComponentRoute, PanelInteraction } from '../../interactions/types.ts';
import { withLockWhenFree } from '../../jobs/guild-lock.ts';
import { type GiveBack, givePicksBack, recordMemberPick } from '../../roles/member-picks.ts';
import { PERSONALITY_FEATURE } from './feature-name.ts';
import { personalityTargetKey } from './roles.ts';

export const PERSONALITY_PANEL_OUT_OF_DATE =
  'This question is out of date. Ask an admin to post the role messages again.';
export const PERSONALITY_ROLE_MISSING_MESSAGE =
  "That role is missing; I've asked for it to be recreated. Try again in a minute.";
export const PERSONALITY_ROLE_ABOVE_BOT_MESSAGE =
  "I can't change that role: my role must be above it in Server Settings → Roles. Ask an admin.";
export const PERSONALITY_MISSING_MANAGE_ROLES_MESSAGE =
  "I can't change your roles: I need the Manage Roles permission. Ask an admin.";
export const PERSONALITY_PICK_REASON = 'Space Cadet: personality pick';
const PERSONALITY_GIVE_BACK_REASON = 'Space Cadet: personality role recreated';
/** Covers clicks that waited on the lock: their payload predates the change recorded here. */
export const LAST_PERSONALITY_TTL_SECONDS = 5 * 60;

/** The answer after a pick: what the member now holds for the question, in panel order. */
export function personalityAnswerMessage(title: string, labels: readonly string[]): string {
  if (labels.length === 0) return `You have no ${title} role now.`;
  return `Your ${title}: ${labels.map((label) => `**${escapeMarkdown(label)}**`).join(', ')}.`;
}

/**
 * What a click asks for, by option index: `only` (a single-choice button), `toggle` (a
 * multi-select button) or `exactly` (the select menu's choice; the clear button is `exactly []`).
 */
type Choice =
  | { kind: 'only'; option: number }
  | { kind: 'toggle'; option: number }
  | { kind: 'exactly'; options: number[] };

/**
 * Member clicks on a personality question's message. Each click is acknowledged as it arrives
 * and recorded as one of the member's picks (`lastPickWins`, one lock per member for all of the
 * feature's questions); its outcome is edited in once applied, so it never waits behind other
 * role changes for the bot's global 50 requests a second. Only roles stored for this guild's
 * question options are ever added or removed, whatever the click or Redis says.
 */
export const personalityRoleInteractions: ComponentRoute = {
  prefix: PERSONALITY_CUSTOM_ID_PREFIX,
  async handle(interaction, deps) {
    const action = parsePersonalityCustomId(interaction.customId);
    const guildId = interaction.guildId;
    await answerEphemeral(
      interaction,
      async (deferFirst): Promise<EphemeralAnswer> => {
        if (!action || !guildId) return { content: PERSONALITY_PANEL_OUT_OF_DATE };
        const question = await loadPersonalityQuestion(deps.db, guildId, action.questionType);
        const choice = question?.isEnabled ? readChoice(interaction, action, question) : null;
        if (!question || !choice) return { content: PERSONALITY_PANEL_OUT_OF_DATE };
        return pickRoles(interaction, deps, guildId, question, choice, deferFirst);
      },
      { deferAtOnce: true },
    );
  },
};

/** The click's choice, or null when it does not fit the question as stored now. */
function readChoice(
  interaction: PanelInteraction,
  action: PersonalityAction,
  question: StoredPersonalityQuestion,
): Choice | null {
  const count = question.options.length;
  switch (action.kind) {
    case 'button':
      if (!interaction.isButton() || action.optionIndex >= count) return null;
      return { kind: question.isMultiSelect ? 'toggle' : 'only', option: action.optionIndex };
    case 'clear':
      return interaction.isButton() ? { kind: 'exactly', options: [] } : null;
    case 'select': {
      if (!interaction.isStringSelectMenu()) return null;
      const options = [...new Set(interaction.values)].map((value) =>
        /^\d{1,3}$/.test(value) ? Number(value) : count,
      );
      if (options.some((index) => index >= count)) return null;
      if (!question.isMultiSelect && options.length > 1) return null;
      return { kind: 'exactly', options };
    }
  }
}

async function pickRoles(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  guildId: string,
  question: StoredPersonalityQuestion,
  choice: Choice,
  deferFirst: DeferFirst,
): Promise<EphemeralAnswer> {
  const chosen = choice.kind === 'exactly' ? choice.options : [choice.option];
  const chosenRoles: string[] = [];
  for (const index of chosen) {
    const roleId = question.options[index]?.roleId;
    // Never hand out @everyone (its id is the guild's), whatever is stored.
    if (!roleId || roleId === guildId) return roleMissing(deps, guildId);
    chosenRoles.push(roleId);
  }
  // Checked from the gateway cache before the lock and any REST call, as color picks do: a
  // click the bot cannot carry out is answered at once and costs no request.
  const guild = interaction.inCachedGuild() ? interaction.guild : null;
  const me = guild?.members.me;
  for (const roleId of chosenRoles) {
    const role = guild?.roles.cache.get(roleId);
    if (guild && !role) return roleMissing(deps, guildId);
    if (me && !me.permissions.has(PermissionFlagsBits.ManageRoles)) {
      return { content: PERSONALITY_MISSING_MANAGE_ROLES_MESSAGE };
    }
    if (me && role && role.comparePositionTo(me.roles.highest) >= 0) {
      return { content: PERSONALITY_ROLE_ABOVE_BOT_MESSAGE };
    }
  }

  const pick: PersonalityPick = {
    questionType: question.questionType,
    guildId,
    userId: interaction.user.id,
    choice,
    chosenRoles,
    title: question.title,
    options: question.options.map((option) => ({
      roleId: option.roleId,
      label: option.label,
      targetKey: personalityTargetKey(option),
    })),
    payloadRoles: [...clickMemberRoleIds(interaction)],
  };
  return lastPickWins(interaction, deps, PERSONALITY_PICKS, question.questionType, pick, deferFirst);
}

/** How long giving a recreated role back waits for the member's clicks before trying later. */
const GIVE_BACK_LOCK_WAIT_MS = 10_000;

/**
 * After option roles were recreated (`recreated`: target key → new role id), each member whose
 * recorded answers include one gets the new role, under their click lock. Their record of the
 * question's roles in Redis is dropped, so their next click starts from what Discord sends.
 */
export function givePersonalityPicksBack(
  deps: WorkerDeps,
  guildId: string,
  questions: readonly StoredPersonalityQuestion[],
  recreated: ReadonlyMap<string, string>,
): Promise<number> {
  const questionOf = new Map(
    questions.flatMap((question) =>
      question.options.map((option) => [personalityTargetKey(option), question.questionType] as const),
    ),
  );
  return givePicksBack(deps, guildId, recreated, async (userId, targetKey, roleId): Promise<GiveBack> => {
    const questionType = questionOf.get(targetKey);
    if (!questionType) return 'skipped';
    const lock = await withLockWhenFree(
      deps.redis,
      memberPickLockKey(PERSONALITY_FEATURE, guildId, userId),
      MEMBER_PICK_LOCK_TTL_MS,
      GIVE_BACK_LOCK_WAIT_MS,
      async (): Promise<GiveBack> => {
        try {
          await discordApi(deps.client).guilds.addRoleToMember(guildId, userId, roleId, {
            reason: PERSONALITY_GIVE_BACK_REASON,
          });
        } catch (error) {
          if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) return 'gone';
          if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.UnknownRole))
            return 'skipped';
          throw error;
        }
        await deps.redis.del(lastPersonalityPickKey(guildId, userId, questionType));
        return 'given';
      },
    );
    // A member clicking non-stop for 10 s: the job fails this attempt and its retry resumes.
    if (!lock.acquired) throw new Error(`member ${userId} kept changing their roles; try again`);
    return lock.value;
  });
}

/** Asks the refresh to recreate the question's missing roles (a pending refresh is joined). */
async function roleMissing(deps: WorkerDeps, guildId: string): Promise<EphemeralAnswer> {
  await addGuildJob(deps.queue, 'personality-roles.refresh', guildId, null, { afterChange: true });
  return { content: PERSONALITY_ROLE_MISSING_MESSAGE };
}

/**
 * A personality click as recorded for the member's lock holder, which may run in another
 * process: the choice with its roles, the question as the click saw it (its type is the pick's
 * group), and the member's roles as Discord sent them.
 */
interface PersonalityPick {
  questionType: string;
  guildId: string;
  userId: string;
  choice: Choice;
  chosenRoles: string[];
  title: string;
  /** Each option's role, label and stable key (`member_role_picks` records keys, not role ids). */
  options: Array<{ roleId: string | null; label: string; targetKey: string }>;
  payloadRoles: string[];
}

/**
 * Personality picks, one lock per member for all of the feature's questions. The waiting picks
 * of each question are folded in click order into one change (a single choice or a select
 * replaces, a multi-select toggle flips), so the last click wins and toggles clicked together
 * all count; every click on the question is answered with what the member then holds for it.
 * A single choice or select older than a click on the question already applied (it reached
 * Redis late) is dropped: that newer click won.
 */
const PERSONALITY_PICKS = registerPickFeature<PersonalityPick>({
  feature: PERSONALITY_FEATURE,
  async apply(deps, picks, doneId) {
    const current = picks.flatMap(({ id, pick }) =>
      doneId === null || BigInt(id) > BigInt(doneId) || pick.choice.kind === 'toggle' ? [pick] : [],
    );
    const newest = current.at(-1);
    return newest ? applyQuestionPicks(deps, newest.questionType, current) : null;
  },
});

/** Applies one question's waiting picks (oldest first) and answers with what the member holds. */
async function applyQuestionPicks(
  deps: WorkerDeps,
  questionType: string,
  picks: readonly PersonalityPick[],
): Promise<EphemeralAnswer> {
  const newest = picks.at(-1);
  if (!newest) throw new Error('no picks to apply');
  const { guildId } = newest;
  const outcome = await changeRoles(deps, questionType, picks);
  if (outcome === 'unknown-role') return roleMissing(deps, guildId);
  if (outcome === 'missing-permissions') {
    const me = deps.client.guilds.cache.get(guildId)?.members.me;
    return me && !me.permissions.has(PermissionFlagsBits.ManageRoles)
      ? { content: PERSONALITY_MISSING_MANAGE_ROLES_MESSAGE }
      : { content: PERSONALITY_ROLE_ABOVE_BOT_MESSAGE };
  }
  recordPersonalityPick(deps, newest, outcome);
  const labels = newest.options.flatMap((option) =>
    option.roleId && outcome.has(option.roleId) ? [option.label] : [],
  );
  return { content: personalityAnswerMessage(newest.title, labels) };
}

/**
 * The one place a member's answers are recorded (`member_role_picks`, written behind the click):
 * the question's options whose roles they hold now, by option, so a recreated role goes back to
 * them. Called once a click's role changes went through.
 */
function recordPersonalityPick(deps: WorkerDeps, pick: PersonalityPick, held: ReadonlySet<string>): void {
  const targetKeys = pick.options.flatMap((option) =>
    option.roleId && held.has(option.roleId) ? [option.targetKey] : [],
  );
  recordMemberPick(deps, {
    guildId: pick.guildId,
    userId: pick.userId,
    scope: personalityPickScope(pick.questionType),
    targetKeys,
  });
}

/**
 * Under the member's lock: makes the member hold the question's roles their picks ask for, in
 * click order, and records what they hold after it. What they held is the last recorded change
 * if any (a click applied after another carries roles from before it), else the newest click's
 * roles. No GET of the member: every REST call counts against the bot's 50 requests per second.
 * Where the payload and the record disagree the role is PUT or DELETEd anyway, both being no-ops
 * for Discord when already so, so a role changed by someone else meanwhile still ends as chosen.
 * Returns the question's roles the member now holds.
 */
async function changeRoles(
  deps: WorkerDeps,
  questionType: string,
  picks: readonly PersonalityPick[],
): Promise<ReadonlySet<string> | 'missing-permissions' | 'unknown-role'> {
  const { client, redis } = deps;
  const newest = picks.at(-1);
  if (!newest) throw new Error('no picks to apply');
  const { guildId, userId } = newest;
  const questionRoles = new Set(
    newest.options.flatMap((option) => (option.roleId && option.roleId !== guildId ? [option.roleId] : [])),
  );
  const lastKey = lastPersonalityPickKey(guildId, userId, questionType);
  const inQuestion = (ids: Iterable<string>) => [...ids].filter((id) => questionRoles.has(id));
  const fromPayload = new Set(inQuestion(newest.payloadRoles));
  const recorded = parseRecord(await redis.get(lastKey));
  const held = new Set(recorded ? inQuestion(recorded) : fromPayload);

  const target = new Set(held);
  for (const { choice, chosenRoles } of picks) {
    if (choice.kind !== 'toggle') target.clear();
    for (const roleId of chosenRoles) {
      if (choice.kind === 'toggle' && target.has(roleId)) target.delete(roleId);
      else target.add(roleId);
    }
  }
  for (const roleId of target) if (!questionRoles.has(roleId)) target.delete(roleId);
  // `now` follows each call, so a change that stops halfway still records what it left.
  const now = new Set(held);
  const record = () => redis.set(lastKey, JSON.stringify([...now]), 'EX', LAST_PERSONALITY_TTL_SECONDS);
  const { guilds } = discordApi(client);
  const reason = PERSONALITY_PICK_REASON;
  try {
    for (const roleId of target) {
      if (held.has(roleId) && fromPayload.has(roleId)) continue;
      await guilds.addRoleToMember(guildId, userId, roleId, { reason });
      now.add(roleId);
    }
    for (const roleId of new Set([...held, ...fromPayload])) {
      if (target.has(roleId)) continue;
      try {
        await guilds.removeRoleFromMember(guildId, userId, roleId, { reason });
      } catch (error) {
        // A role deleted from the server is held by nobody: that is the outcome asked for.
        if (!isDiscordError(error, DiscordCodes.UnknownRole)) throw error;
      }
      now.delete(roleId);
    }
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.UnknownRole)) {
      await record();
      return isDiscordError(error, DiscordCodes.UnknownRole) ? 'unknown-role' : 'missing-permissions';
    }
    // Whether the failed call took effect is unknown: the next click starts from its payload.
    await redis.del(lastKey);
    throw error;
  }
  await record();
  return now;
}

/** The stored JSON array of role ids, or null when absent or not of that shape. */
function parseRecord(stored: string | null): string[] | null {
  if (stored === null) return null;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (Array.isArray(parsed) && parsed.every((id): id is string => typeof id === 'string')) return parsed;
  } catch {
    // Not JSON: treated as no record.
  }
  return null;
}
