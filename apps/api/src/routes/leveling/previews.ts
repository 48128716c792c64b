import { routes } from '@spacecadet/contract';
import {
  classifyLeavers,
  levelingResetImpact,
  pruneImpact,
  pruneImpactUnchecked,
  rewardRoleDeleteImpact,
} from '@spacecadet/core';
import { levelingBoosts, levelingRoles, memberXp } from '@spacecadet/db';
import { loadLevelingRole, loadXpMembers } from '@spacecadet/db/queries/leveling';
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.ts';
import { DiscordError } from '../../services/discord.ts';
import { NO_LEVEL_ROLE_MESSAGE, rewardHolders } from '../../services/leveling/rewards.ts';
import { defineRoute } from '../define.ts';

/** What Reset Leveling, Prune leavers and deleting a reward role will remove, for their confirmations. */
export function registerLevelingPreviewRoutes(app: FastifyInstance): void {
  const { db, discord } = app.services;

  // Reset Leveling deletes every XP row, reward role and boost of the guild (`deleteLevelingData`).
  defineRoute(app, routes.previewLevelingReset, async ({ params }) => {
    const guildId = params.guildId;
    const [[members], [roles], [boosts]] = await Promise.all([
      db.select({ n: count() }).from(memberXp).where(eq(memberXp.guildId, guildId)),
      db.select({ n: count() }).from(levelingRoles).where(eq(levelingRoles.guildId, guildId)),
      db.select({ n: count() }).from(levelingBoosts).where(eq(levelingBoosts.guildId, guildId)),
    ]);
    const m = members?.n ?? 0;
    const r = roles?.n ?? 0;
    return { summary: levelingResetImpact(m, r, boosts?.n ?? 0), roles: r, members: m };
  });

  // The job's own plan (core `classifyLeavers`) over the member list: the ones seen leaving and
  // the ones the list does not have. Without the list (Discord refuses it), an upper bound.
  defineRoute(app, routes.previewPruneLeavers, async ({ params }) => {
    const guildId = params.guildId;
    const startedAt = new Date();
    const withXp = await loadXpMembers(db, guildId);
    if (withXp.length === 0) return { summary: pruneImpact(0), roles: 0, members: 0 };
    const hasXp = new Set(withXp.map((member) => member.userId));
    let present: Set<string> | null = new Set();
    try {
      for await (const page of discord.guildMemberPages(guildId)) {
        for (const member of page) if (hasXp.has(member.user.id)) present.add(member.user.id);
      }
    } catch (error) {
      if (!(error instanceof DiscordError) || error.status !== 403) throw error;
      present = null;
    }
    const plan = classifyLeavers(withXp, present, startedAt);
    if (present === null) {
      const marked = withXp.filter((member) => member.leftAt !== null && member.leftAt < startedAt).length;
      return {
        summary: pruneImpactUnchecked(marked, plan.toConfirm.length - marked),
        roles: 0,
        members: plan.toConfirm.length,
      };
    }
    const members = plan.markedGone.length + plan.toConfirm.length;
    return { summary: pruneImpact(members), roles: 0, members };
  });

  // The members the reward role is given to by their level (the holders the page shows).
  defineRoute(app, routes.previewLevelingRoleDelete, async ({ params }) => {
    const { guildId, roleId } = params;
    const role = await loadLevelingRole(db, guildId, roleId);
    if (!role) throw notFound(NO_LEVEL_ROLE_MESSAGE);
    const holders = (await rewardHolders(db, guildId)).get(role.id) ?? 0;
    return { summary: rewardRoleDeleteImpact(role.roleName, holders), roles: 1, members: holders };
  });
}
