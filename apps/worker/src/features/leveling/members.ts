import { memberXp } from '@spacecadet/db/schema';
import { Events } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import type { WorkerDeps } from '../../deps.ts';
import { onGateway } from '../feature.ts';

/**
 * Marks members who left (`member_xp.left_at`) so "Prune leavers" can delete their XP, and
 * unmarks them when they come back. Members are mostly not cached, so the client receives
 * leaves as partial members; only the ids are needed.
 */
export const leaverEvents = [
  onGateway(Events.GuildMemberRemove, 'mark a leaver', (deps, member) =>
    markLeft(deps, member.guild.id, member.id, new Date()),
  ),
  onGateway(Events.GuildMemberAdd, 'unmark a returning member', (deps, member) =>
    markLeft(deps, member.guild.id, member.id, null),
  ),
];

async function markLeft(deps: WorkerDeps, guildId: string, userId: string, leftAt: Date | null) {
  await deps.db
    .update(memberXp)
    .set({ leftAt })
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)));
}
