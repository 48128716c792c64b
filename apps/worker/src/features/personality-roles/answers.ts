import { memberPickLockKey } from '@spacecadet/contract';
import { personalityPickScope } from '@spacecadet/db/queries/member-picks';
import {
  markPersonalityAnswersLeft,
  memberPersonalityOptionIds,
  type RoleAnswerChange,
  recordRoleAnswers,
} from '@spacecadet/db/queries/personality-answers';
import { GatewayDispatchEvents, type GatewayDispatchPayload } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { MEMBER_PICK_LOCK_TTL_MS } from '../../interactions/member-lock.ts';
import { memberOrder } from '../../member-order.ts';
import { onGateway } from '../feature.ts';
import { managedIds } from '../repairs/managed-ids.ts';
import { PERSONALITY_FEATURE } from './feature-name.ts';
import { personalityGivingBackKey } from './keys.ts';
import { loadPersonalitySetup } from './setup-cache.ts';

/**
 * Answers given outside the panel: a GUILD_MEMBER_UPDATE that gives or takes an option's role
 * not already recorded in `member_role_picks` (an Onboarding answer, an admin by hand, another
 * bot) records the pick and an answer event (`onboarding` when the question is a prompt of the
 * server's Onboarding, else `role`). A panel click records its own change before it lets go of
 * the member's lock (apply-picks.ts); the update it causes waits for that lock, finds the pick
 * recorded and counts nothing, so each change counts once. A leave marks the member's events.
 */

const LOCK_POLL_MS = 50;

/** Waits while a click of the member is being applied (bounded by the lock's lifetime). */
async function afterMemberClicks(deps: WorkerDeps, guildId: string, userId: string): Promise<void> {
  const key = memberPickLockKey(PERSONALITY_FEATURE, guildId, userId);
  const until = Date.now() + MEMBER_PICK_LOCK_TTL_MS;
  while (Date.now() < until && (await deps.redis.exists(key)) === 1) {
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

interface MemberUpdate {
  guild_id: string;
  user: { id: string };
  roles: string[];
  joined_at?: string | null;
}

async function onMemberUpdate(deps: WorkerDeps, member: MemberUpdate): Promise<void> {
  const guildId = member.guild_id;
  const userId = member.user.id;
  const managed = await managedIds.get(deps, guildId);
  if (![...managed.roles.values()].includes('personality')) return;
  await afterMemberClicks(deps, guildId, userId);
  const { config, questions } = await loadPersonalitySetup(deps, guildId, { fresh: false });
  if (!config.configured) return;
  const held = new Set(member.roles);
  const recorded = await memberPersonalityOptionIds(deps.db, guildId, userId);
  const gained: RoleAnswerChange[] = [];
  const lost: RoleAnswerChange[] = [];
  for (const question of questions) {
    if (!question.isEnabled) continue;
    const scope = personalityPickScope(question.questionType);
    const source = question.onboardingPromptId ? 'onboarding' : 'role';
    for (const option of question.options) {
      // Only a role Discord has now counts: a role being recreated is not "taken".
      if (!option.roleId || option.roleId === guildId || !managed.roles.has(option.roleId)) continue;
      const change = { optionId: option.id, scope, source } as const;
      if (held.has(option.roleId) && !recorded.has(option.id)) gained.push(change);
      else if (!held.has(option.roleId) && recorded.has(option.id)) lost.push(change);
    }
  }
  // While recreated roles go back to their members, lacking one is not dropping the answer.
  const dropped =
    lost.length > 0 && (await deps.redis.exists(personalityGivingBackKey(guildId))) === 0 ? lost : [];
  const joinedAt = member.joined_at ? new Date(member.joined_at) : null;
  await recordRoleAnswers(deps.db, { guildId, userId, joinedAt }, { gained, lost: dropped });
}

async function onMemberLeave(deps: WorkerDeps, guildId: string, userId: string): Promise<void> {
  const managed = await managedIds.get(deps, guildId);
  if (![...managed.roles.values()].includes('personality')) return;
  await markPersonalityAnswersLeft(deps.db, guildId, userId, new Date());
}

const inOrder = memberOrder();

export const personalityAnswerEvents = [
  onGateway('raw', 'personality answers given or taken outside the panel, and leaves', (deps, packet) => {
    const dispatch = packet as GatewayDispatchPayload;
    if (dispatch.t === GatewayDispatchEvents.GuildMemberUpdate) {
      const member = dispatch.d;
      return inOrder(member.guild_id, member.user.id, () => onMemberUpdate(deps, member));
    }
    if (dispatch.t === GatewayDispatchEvents.GuildMemberRemove) {
      const { guild_id: guildId, user } = dispatch.d;
      return inOrder(guildId, user.id, () => onMemberLeave(deps, guildId, user.id));
    }
  }),
];
