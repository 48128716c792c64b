import type { JobResult } from '@spacecadet/contract';
import {
  queuePersonalityCleanup,
  type StoredPersonalityOption,
  type StoredPersonalityQuestion,
  setPersonalityOptionRoleId,
} from '@spacecadet/db/queries/personality-roles';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { type GuildRoleInfo, type GuildRolesView, roleAboveBotWarning } from '../../roles/guild-roles.ts';
import {
  adoptOrphansWithinCap,
  clearPendingRole,
  createMarkedRole,
  loadPendingRoles,
  type PendingRoleTarget,
} from '../../roles/pending-roles.ts';
import { PERSONALITY_FEATURE } from './feature-name.ts';
import { givePersonalityPicksBack } from './give-back.ts';
import { personalityGivingBackKey, personalityTargetKey } from './keys.ts';

/** Bounds the mark of a run that died while giving roles back. */
const GIVING_BACK_TTL_SECONDS = 15 * 60;

/** Personality roles carry no colour, so a member's colour role keeps showing. */
const ROLE_COLOR = 0;

export const MANAGE_ROLES_WARNING =
  "I don't have the Manage Roles permission, so members can't pick personality roles. Give my role Manage Roles.";

/**
 * The role of each option of an enabled question, in panel order. Kept per questions array: the
 * setup cache hands every scheduled refresh of a guild the same one (not to be changed), so the
 * refresh every 5 minutes of each guild does not list them again.
 */
function wantedOptions(questions: readonly StoredPersonalityQuestion[]): readonly StoredPersonalityOption[] {
  let wanted = wantedByQuestions.get(questions);
  if (wanted === undefined) {
    wanted = questions.filter((question) => question.isEnabled).flatMap((question) => question.options);
    wantedByQuestions.set(questions, wanted);
  }
  return wanted;
}
const wantedByQuestions = new WeakMap<readonly StoredPersonalityQuestion[], StoredPersonalityOption[]>();

const targetKey = personalityTargetKey;
const roleTarget = (option: StoredPersonalityOption): PendingRoleTarget => ({
  key: targetKey(option),
  name: roleName(option),
  color: ROLE_COLOR,
});

export interface RolesOutcome {
  created: number;
  adopted: number;
  /** Members given a recreated role back (their recorded answer). */
  givenBack: number;
  warnings: string[];
}

/**
 * Gives every option of every enabled question a live Discord role: created when it has none
 * or its role was deleted, nothing else touched (so a second run changes nothing). The whole
 * run is checked against Discord's 250-role cap before the first create. Each new role id is
 * stored right after Discord made it, with a Redis mark around the create, so a run killed in
 * between is resumed by a retry that adopts the role instead of making a second one.
 */
export async function ensurePersonalityRoles(
  context: JobContext,
  questions: readonly StoredPersonalityQuestion[],
  firstView: GuildRolesView,
  options: {
    onProgress?: (fraction: number) => Promise<void>;
    /** Where `firstView` may lag Discord (the gateway cache): read again before creating. */
    reread?: () => Promise<GuildRolesView>;
  } = {},
): Promise<RolesOutcome> {
  const { redis } = context.deps;
  const guildId = context.payload.guild_id;
  const wanted = wantedOptions(questions);
  const missingIn = (view: GuildRolesView) =>
    wanted.filter((option) => !option.roleId || !view.has(option.roleId));
  let view = firstView;
  // The usual answer (every role there) without building a list.
  const allThere = wanted.every((option) => option.roleId && view.has(option.roleId));
  let missing = allThere ? [] : missingIn(view);
  if (missing.length > 0 && options.reread) {
    view = await options.reread();
    missing = missingIn(view);
  }
  if (missing.length === 0) {
    return { created: 0, adopted: 0, givenBack: 0, warnings: manageWarnings(view, wanted) };
  }

  const claimed = new Set(
    questions
      .flatMap((question) => question.options.flatMap((option) => option.roleId ?? []))
      .filter((id) => view.has(id)),
  );
  const pending = await loadPendingRoles(redis, PERSONALITY_FEATURE, guildId);
  let everyRole: GuildRoleInfo[] | undefined;
  const adoptions = adoptOrphansWithinCap(
    {
      missing: missing.map(roleTarget),
      pending,
      roles: () => {
        everyRole ??= view.all();
        return everyRole;
      },
      claimed,
      count: view.count,
    },
    {
      need: 'personality roles need',
      advice: 'Delete some roles or disable some questions, then try again.',
    },
  );
  const toCreate = missing.length - adoptions.size;
  if (toCreate > 0 && !view.botCanManageRoles) {
    throw new JobFailure('forbidden', 'I need the Manage Roles permission to create personality roles.');
  }

  let created = 0;
  let done = 0;
  const recreated = new Map<string, string>();
  const givingBack = personalityGivingBackKey(guildId);
  await redis.set(givingBack, '1', 'EX', GIVING_BACK_TTL_SECONDS);
  for (const option of missing) {
    const adopted = adoptions.get(targetKey(option))?.id;
    const roleId =
      adopted ??
      (await createMarkedRole(context, PERSONALITY_FEATURE, roleTarget(option), 'personality roles'));
    if (!(await setPersonalityOptionRoleId(context.deps.db, option.id, roleId))) {
      // A reset removed the option while this run was creating its role: the role goes too.
      await queuePersonalityCleanup(context.deps.db, {
        guildId,
        kind: 'role',
        targetId: roleId,
        channelId: null,
        name: option.label,
      });
    } else recreated.set(targetKey(option), roleId);
    await clearPendingRole(redis, PERSONALITY_FEATURE, guildId, targetKey(option));
    if (!adopted) created += 1;
    done += 1;
    await options.onProgress?.(done / missing.length);
  }
  const givenBack = await givePersonalityPicksBack(context.deps, guildId, questions, recreated);
  await redis.del(givingBack);
  return { created, adopted: adoptions.size, givenBack, warnings: manageWarnings(view, wanted) };
}

/** Discord allows 100 characters in a role name; option labels are shorter, but stay safe. */
function roleName(option: StoredPersonalityOption): string {
  return option.label.slice(0, 100);
}

/**
 * What keeps members from getting their roles, for the admin: no Manage Roles, or option roles
 * at or above the bot's highest role. Roles created in this run sit at the bottom, so the view
 * read before it is enough.
 */
function manageWarnings(view: GuildRolesView, options: readonly StoredPersonalityOption[]): string[] {
  if (!view.botCanManageRoles) return [MANAGE_ROLES_WARNING];
  const warnings: string[] = [];
  for (const option of options) {
    const position = option.roleId ? view.positionOf(option.roleId) : undefined;
    if (position === undefined || position < view.botTopPosition) continue;
    const role = option.roleId ? view.role(option.roleId) : undefined;
    if (role) warnings.push(roleAboveBotWarning(role.name));
  }
  return warnings;
}

/** `JobResult.warnings` only when there are some. */
export function withWarnings(result: JobResult, warnings: readonly string[]): JobResult {
  return warnings.length > 0 ? { ...result, warnings: [...warnings] } : result;
}
