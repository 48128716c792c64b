import type { JobResult } from '@spacecadet/contract';
import { rewardRoleChanges } from '@spacecadet/core';
import { loadLevelingRoles, loadLevelingSettings } from '@spacecadet/db/queries/leveling';
import { clearRewardsDue, loadRewardsDue } from '@spacecadet/db/queries/xp-tools';
import type { JobContext } from '../../jobs/types.ts';
import { applyRewardChanges, fetchMemberIfPresent } from './rewards.ts';

const DUE_PER_READ = 200;

/**
 * `leveling.apply-rewards`: after an admin set, reset or imported XP (the tools mark members'
 * rewards as due), gives each marked member the reward roles of their level under the reward
 * mode and removes the reward roles above it (or below the highest, in `highest` mode), then
 * clears the mark unless the XP changed again meanwhile. A rerun finds nothing marked.
 */
export async function applyDueRewards(context: JobContext): Promise<JobResult> {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  const [settings, roles] = await Promise.all([
    loadLevelingSettings(deps.db, guildId),
    loadLevelingRoles(deps.db, guildId),
  ]);
  const rewards = roles.filter((role) => role.roleId !== guildId);
  let members = 0;
  let changed = 0;
  const seen = new Set<string>();
  for (;;) {
    const due = (await loadRewardsDue(deps.db, guildId, DUE_PER_READ)).filter((m) => !seen.has(m.userId));
    if (due.length === 0) break;
    for (const member of due) {
      seen.add(member.userId);
      const held = await fetchMemberIfPresent(deps.client, guildId, member.userId);
      if (held) {
        const changes = rewardRoleChanges(rewards, member.level, settings.rewardMode, held.roles);
        changed += await applyRewardChanges(deps, guildId, member.userId, changes);
      }
      await clearRewardsDue(deps.db, guildId, member.userId, member.dueAt);
      members += 1;
    }
  }
  return {
    ok: true,
    summary: `Rewards brought in line for ${members} member${members === 1 ? '' : 's'} (${changed} role change${changed === 1 ? '' : 's'}).`,
  };
}
