import type { JobResult } from '@spacecadet/contract';
import {
  clearRewardsDue,
  countRewardsDue,
  loadRewardsDue,
  loadRewardsDueOf,
  markDueMemberLeft,
  markUnlistedDueMembersLeft,
} from '@spacecadet/db/queries/xp-tools';
import type { APIGuildMember } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { forEachMemberPage } from '../../guild-members.ts';
import type { JobContext } from '../../jobs/types.ts';
import { MEMBER_LIST_REFUSED_WARNING } from './member-list.ts';
import {
  bringMemberRewardsInLine,
  goneRoleWarning,
  loadRewardPlan,
  type RewardOutcome,
  type RewardPlan,
  refusedRoleWarnings,
} from './rewards.ts';
import { MANAGE_ROLES_WARNING } from './sync-roles.ts';

/** Members read per query: the work between two reads stays bounded however big an import. */
const DUE_PER_READ = 200;
/**
 * Walks over the marks: the first applies every mark there was; a later one only the members
 * whose XP a tool changed again while it ran. Past that, what is still marked waits for the
 * run the tool queues after its change.
 */
const MAX_PASSES = 3;
/**
 * From this many marks (an import), the member list is walked first (1,000 members a page, each
 * page's marks read at once), so a member costs no `GET` of their own; only what is still
 * marked after it (leavers, members who joined meanwhile) is asked about one by one.
 */
const LIST_WALK_FROM = 500;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Brings one marked member's rewards in line with their stored level, then clears the mark
 * (unless their XP changed again meanwhile); a member not in the guild is marked as left
 * instead, so an imported leaver is not ranked until they talk again. What `/xp` and the job
 * share.
 */
export async function applyMemberDueRewards(
  deps: WorkerDeps,
  guildId: string,
  member: { userId: string; level: number; dueAt: Date },
  plan: RewardPlan,
  listed?: APIGuildMember,
): Promise<RewardOutcome> {
  const outcome = await bringMemberRewardsInLine(
    deps.client,
    guildId,
    member.userId,
    member.level,
    plan,
    listed,
  );
  if (outcome.memberGone) await markDueMemberLeft(deps.db, guildId, member.userId, member.dueAt);
  else await clearRewardsDue(deps.db, guildId, member.userId, member.dueAt);
  return outcome;
}

/**
 * `leveling.apply-rewards`: after an admin set, reset or imported XP (the tools mark members'
 * rewards as due), gives each marked member the reward roles of their level under the reward
 * mode and removes the reward roles above it (or below the highest, in `highest` mode), then
 * clears the mark. A run killed halfway left the marks of the members it had not finished, and
 * Discord is only called where a member's roles differ, so a rerun finishes the work and a run
 * after a finished one changes nothing.
 */
export async function applyDueRewards(context: JobContext): Promise<JobResult> {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const total = await countRewardsDue(deps.db, guildId);
  if (total === 0) {
    await context.progress(100);
    return { ok: true, summary: 'No rewards were due: every member already has the rewards of their level.' };
  }
  const { plan, canManage, gone } = await loadRewardPlan(deps, guildId);
  const warnings = gone.map((role) => goneRoleWarning(role.roleName));
  if (plan.roles.length > 0 && !canManage) {
    // The marks stay: a run after the permission is given applies them.
    await context.progress(100);
    return {
      ok: true,
      summary: `No rewards changed: ${plural(total, 'member')} still wait for theirs.`,
      warnings: [MANAGE_ROLES_WARNING, ...warnings],
    };
  }

  const tally = new RewardTally();
  let done = 0;
  const run: DueRun = {
    context,
    plan,
    tally,
    progress: (count) => {
      done += count;
      return context.progress(Math.min(99, (100 * done) / total));
    },
  };
  let leftByList = 0;
  if (total >= LIST_WALK_FROM) {
    const walked = await walkMemberList(run);
    if (walked === null) warnings.push(MEMBER_LIST_REFUSED_WARNING);
    else leftByList = walked;
  }
  await applyRemainingDue(run);
  await context.progress(100);

  const left = tally.leftMembers.size + leftByList;
  warnings.push(...refusedRoleWarnings(plan, tally.refused));
  const summary = [
    `Rewards checked for ${plural(tally.members.size - tally.leftMembers.size, 'member')}: ${plural(tally.added, 'role')} given, ${tally.removed} removed` +
      (tally.changedMembers.size > 0 ? ` (${plural(tally.changedMembers.size, 'member')} changed).` : '.'),
    left > 0 ? `${plural(left, 'member')} no longer in the server marked as left.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { ok: true, summary, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** What a run of the job has done so far, member by member. */
class RewardTally {
  readonly members = new Set<string>();
  readonly changedMembers = new Set<string>();
  readonly leftMembers = new Set<string>();
  readonly refused = new Set<string>();
  added = 0;
  removed = 0;

  add(userId: string, outcome: RewardOutcome): void {
    this.members.add(userId);
    if (outcome.memberGone) this.leftMembers.add(userId);
    this.added += outcome.added.length;
    this.removed += outcome.removed.length;
    if (outcome.added.length + outcome.removed.length > 0) this.changedMembers.add(userId);
    for (const roleId of outcome.refused) this.refused.add(roleId);
  }
}

/** One run of the job: its context, the reward plan, the tally, and progress by members done. */
interface DueRun {
  context: JobContext;
  plan: RewardPlan;
  tally: RewardTally;
  progress(count: number): Promise<void>;
}

/**
 * Walks the member list, applying each page's marked members with the member as listed (no
 * `GET` of their own). Returns how many members still marked from before the walk were marked
 * as left, or null when Discord refused the list.
 */
async function walkMemberList({ context, plan, tally, progress }: DueRun): Promise<number | null> {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  const walkStart = new Date();
  const seen = new Set<string>();
  const listed = await forEachMemberPage(deps.client, guildId, async (page) => {
    const byId = new Map(page.map((member) => [member.user.id, member]));
    for (const id of byId.keys()) seen.add(id);
    const due = await loadRewardsDueOf(deps.db, guildId, [...byId.keys()]);
    for (const member of due) {
      tally.add(
        member.userId,
        await applyMemberDueRewards(deps, guildId, member, plan, byId.get(member.userId)),
      );
    }
    await progress(due.length);
  });
  if (!listed) return null;
  // The whole list was read: whoever is still marked from before it is not in the server.
  // Marked as left in bulk, not asked about one by one (an import of 50,000 leavers would be
  // 50,000 requests). Someone who joined during the walk is marked left too; their next
  // message or Sync Roles catches them up.
  const leftByList = await markUnlistedDueMembersLeft(deps.db, guildId, seen, walkStart);
  await progress(leftByList);
  return leftByList;
}

/** Applies the members still marked, a read at a time, in up to MAX_PASSES walks over the marks. */
async function applyRemainingDue({ context, plan, tally, progress }: DueRun): Promise<void> {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    let after: string | undefined;
    let found = 0;
    for (;;) {
      const due = await loadRewardsDue(deps.db, guildId, DUE_PER_READ, after);
      if (due.length === 0) break;
      for (const member of due)
        tally.add(member.userId, await applyMemberDueRewards(deps, guildId, member, plan));
      found += due.length;
      after = due.at(-1)?.userId;
      await progress(due.length);
    }
    if (found === 0) break;
  }
}
