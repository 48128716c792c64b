import { lastPersonalityPickKey } from '@spacecadet/contract';
import { personalityPickScope } from '@spacecadet/db/queries/member-picks';
import { recordPanelAnswers } from '@spacecadet/db/queries/personality-answers';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import { escapeMarkdown, PermissionFlagsBits } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import { registerPickFeature } from '../../interactions/member-lock.ts';
import type { EphemeralAnswer } from '../../interactions/respond.ts';
import { errorFields } from '../../logger.ts';
import { recordMemberPick } from '../../roles/member-picks.ts';
import { PERSONALITY_FEATURE } from './feature-name.ts';

/**
 * Applying members' personality picks under their lock: the recorded click, the roles it
 * changes, what is recorded of it and the answer the member gets.
 */

export const PERSONALITY_ROLE_MISSING_MESSAGE =
  "That role is missing; I've asked for it to be recreated. Try again in a minute.";
export const PERSONALITY_ROLE_ABOVE_BOT_MESSAGE =
  "I can't change that role: my role must be above it in Server Settings → Roles. Ask an admin.";
export const PERSONALITY_MISSING_MANAGE_ROLES_MESSAGE =
  "I can't change your roles: I need the Manage Roles permission. Ask an admin.";
export const PERSONALITY_PICK_REASON = 'Space Cadet: personality pick';
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
export type Choice =
  | { kind: 'only'; option: number }
  | { kind: 'toggle'; option: number }
  | { kind: 'exactly'; options: number[] };

/**
 * A personality click as recorded for the member's lock holder, which may run in another
 * process: the choice with its roles, the question as the click saw it (its type is the pick's
 * group), and the member's roles as Discord sent them.
 */
export interface PersonalityPick {
  questionType: string;
  guildId: string;
  userId: string;
  choice: Choice;
  chosenRoles: string[];
  title: string;
  /** Each option's role, label and stable key (`member_role_picks` records keys, not role ids). */
  options: Array<{ roleId: string | null; label: string; targetKey: string }>;
  payloadRoles: string[];
  /** When the member joined (ISO), for insights; absent in picks recorded before. */
  joinedAt?: string | null;
}

/**
 * Personality picks, one lock per member for all of the feature's questions. The waiting picks
 * of each question are folded in click order into one change (a single choice or a select
 * replaces, a multi-select toggle flips), so the last click wins and toggles clicked together
 * all count; every click on the question is answered with what the member then holds for it.
 * A single choice or select older than a click on the question already applied (it reached
 * Redis late) is dropped: that newer click won.
 */
export const PERSONALITY_PICKS = registerPickFeature<PersonalityPick>({
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
  await recordPersonalityPick(deps, newest, outcome);
  const labels = newest.options.flatMap((option) =>
    option.roleId && outcome.has(option.roleId) ? [option.label] : [],
  );
  return { content: personalityAnswerMessage(newest.title, labels) };
}

/**
 * The one place a member's panel answers are recorded (`member_role_picks`): the question's
 * options whose roles they hold now, by option, so a recreated role goes back to them, and what
 * changed as `panel` answer events. Written before the member's lock is let go, so the
 * GUILD_MEMBER_UPDATE the click caused (which waits for the lock, answers.ts) finds it recorded
 * and does not count it again. Should Postgres fail, the picks are written behind (no event).
 */
async function recordPersonalityPick(
  deps: WorkerDeps,
  pick: PersonalityPick,
  held: ReadonlySet<string>,
): Promise<void> {
  const targetKeys = pick.options.flatMap((option) =>
    option.roleId && held.has(option.roleId) ? [option.targetKey] : [],
  );
  const scope = personalityPickScope(pick.questionType);
  const member = {
    guildId: pick.guildId,
    userId: pick.userId,
    joinedAt: pick.joinedAt ? new Date(pick.joinedAt) : null,
  };
  const optionIds = targetKeys.flatMap((key) => {
    const match = /^option:(\d+)$/.exec(key);
    return match ? [Number(match[1])] : [];
  });
  try {
    await recordPanelAnswers(deps.db, member, scope, optionIds);
  } catch (error) {
    deps.logger.warn(
      { ...errorFields(error), guildId: pick.guildId },
      'personality answer not recorded now; written behind',
    );
    recordMemberPick(deps, { guildId: pick.guildId, userId: pick.userId, scope, targetKeys });
  }
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
/** Asks the refresh to recreate the question's missing roles (a pending refresh is joined). */
export async function roleMissing(deps: WorkerDeps, guildId: string): Promise<EphemeralAnswer> {
  await addGuildJob(deps.queue, 'personality-roles.refresh', guildId, null, { afterChange: true });
  return { content: PERSONALITY_ROLE_MISSING_MESSAGE };
}
