import type { JobResult } from '@spacecadet/contract';
import { classifyLeavers } from '@spacecadet/core';
import { deleteMemberXp, loadXpMembers, unmarkLeft } from '@spacecadet/db/queries/leveling';
import { attachXpRows, loadXpRows } from '@spacecadet/db/queries/leveling-snapshots';
import { forEachMemberPage } from '../../guild-members.ts';
import type { JobContext } from '../../jobs/types.ts';
import { MEMBER_LIST_REFUSED_WARNING } from './member-list.ts';
import { syncDailyOverviewSchedule } from './overview-schedule.ts';
import { fetchMemberIfPresent } from './rewards.ts';

/** How many members' XP one statement deletes. */
const DELETE_CHUNK = 500;

/**
 * `leveling.prune-leavers` (Prune leavers): deletes the XP (running and daily) of members no
 * longer in the guild: the ones seen leaving (`left_at`, set by the member-remove handler) and
 * the ones who left while the bot was offline (missing from Discord's member list). A current
 * member is never deleted:
 * - a member marked as left is deleted only if the member list does not have them and the mark
 *   (older than this run) is still there when deleting, so a return recorded meanwhile keeps it;
 * - a member never seen leaving is asked about by id first (`GET` the member), since only the
 *   member list says they left.
 * Members the list has but who carry a leave mark (they came back while the bot was offline)
 * get the mark cleared. The plan is core's `classifyLeavers` (the confirmation's preview runs it
 * too). Before deleting, the rows to delete are kept in the request's history entry (its undo
 * puts them back); a retry adds only members the first attempt did not keep.
 */
export async function pruneLeavers(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const startedAt = new Date();
  const withXp = await loadXpMembers(db, guildId);
  const warnings: string[] = [];
  const entryId = context.payload.history_entry_id;
  if (withXp.length === 0) {
    if (entryId !== undefined) await attachXpRows(db, guildId, entryId, { members: [], daily: [] });
    await syncDailyOverviewSchedule(context.deps, guildId);
    await context.progress(100);
    return { ok: true, summary: 'No members have XP: nothing to prune.', deleted: 0 };
  }

  // Only members with XP matter: a large guild's list is not kept whole.
  const hasXp = new Set(withXp.map((member) => member.userId));
  const present = new Set<string>();
  const listed = await forEachMemberPage(client, guildId, async (page) => {
    for (const member of page) if (hasXp.has(member.user.id)) present.add(member.user.id);
  });
  await context.progress(40);

  // Marked before this run and absent from the list: gone, unless a return is recorded by then.
  // Never seen leaving (or the list was refused): asked about one by one.
  const { markedGone, toConfirm, returned } = classifyLeavers(withXp, listed ? present : null, startedAt);
  if (!listed) warnings.push(MEMBER_LIST_REFUSED_WARNING);

  const confirmedGone: string[] = [];
  for (const [index, userId] of toConfirm.entries()) {
    const member = await fetchMemberIfPresent(client, guildId, userId);
    if (member) {
      // Listed members never get here; a member found by id may carry a stale mark.
      returned.push(userId);
    } else {
      confirmedGone.push(userId);
    }
    if (index % 25 === 24) await context.progress(40 + (40 * (index + 1)) / toConfirm.length);
  }
  await context.progress(80);

  // Kept before anything is deleted: the undo puts exactly these rows back.
  if (entryId !== undefined) {
    const rows = await loadXpRows(db, guildId, [...markedGone, ...confirmedGone]);
    await attachXpRows(db, guildId, entryId, { members: rows.members, daily: rows.daily });
  }

  let deleted = 0;
  for (let i = 0; i < markedGone.length; i += DELETE_CHUNK) {
    deleted += (await deleteMemberXp(db, guildId, markedGone.slice(i, i + DELETE_CHUNK), startedAt)).length;
  }
  for (let i = 0; i < confirmedGone.length; i += DELETE_CHUNK) {
    deleted += (await deleteMemberXp(db, guildId, confirmedGone.slice(i, i + DELETE_CHUNK))).length;
  }
  let unmarked = 0;
  for (let i = 0; i < returned.length; i += DELETE_CHUNK) {
    unmarked += await unmarkLeft(db, guildId, returned.slice(i, i + DELETE_CHUNK), startedAt);
  }

  await syncDailyOverviewSchedule(context.deps, guildId);
  await context.progress(100);
  const summary =
    deleted === 0
      ? 'No leavers to prune: everyone with XP is still in the server.'
      : `Removed the XP of ${deleted} member${deleted === 1 ? '' : 's'} who left the server.`;
  return {
    ok: true,
    summary:
      unmarked > 0 ? `${summary} ${unmarked} returned member${unmarked === 1 ? '' : 's'} kept.` : summary,
    deleted,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
