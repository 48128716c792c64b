import { memberXp } from '@spacecadet/db/schema';
import { Events } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';

/**
 * Marks members who left (`member_xp.left_at`) so "Prune leavers" can delete their XP, and
 * unmarks them when they come back. Members are mostly not cached, so the client receives
 * leaves as partial members; only the ids are needed.
 */
export function trackLeavers(deps: WorkerDeps): void {
  const { client, db, logger } = deps;
  const mark = (guildId: string, userId: string, leftAt: Date | null) => {
    db.update(memberXp)
      .set({ leftAt })
      .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)))
      .catch((error: unknown) =>
        logger.error({ ...errorFields(error), guildId, userId }, 'leaver update failed'),
      );
  };
  client.on(Events.GuildMemberRemove, (member) => mark(member.guild.id, member.id, new Date()));
  client.on(Events.GuildMemberAdd, (member) => mark(member.guild.id, member.id, null));
}
