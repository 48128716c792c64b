import { type Boost, type LevelingRole, type LevelingSettings, routes } from '@spacecadet/contract';
import { MAX_LEVEL_ROLES, roleBoostUserId } from '@spacecadet/core';
import {
  type Db,
  type LevelingBoostRow,
  type LevelingRoleRow,
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
} from '@spacecadet/db';
import {
  DEFAULT_LEVELING_SETTINGS,
  loadLevelingSettings,
  type StoredLevelingSettings,
  storedLevelingSettings,
} from '@spacecadet/db/queries/leveling';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import { enqueueGuildJob } from '../services/jobs.ts';
import { defineRoute } from './define.ts';

function toSettings(stored: StoredLevelingSettings): LevelingSettings {
  return {
    enabled: stored.enabled,
    xp_multiplier: stored.xpMultiplier,
    announcement_channel: stored.announcementChannel,
    daily_overview_channel: stored.dailyOverviewChannel,
    xp_per_message: stored.xpPerMessage,
    message_cooldown_sec: stored.messageCooldownSec,
  };
}

function toRole(row: LevelingRoleRow): LevelingRole {
  return {
    id: row.id,
    role_name: row.roleName,
    level_required: row.levelRequired,
    is_image_role: row.isImageRole,
    role_id: row.roleId,
  };
}

function toBoost(row: LevelingBoostRow): Boost {
  return {
    id: row.id,
    multiplier: row.multiplier,
    user_id: row.userId,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/** Adding a reward role or a boost turns leveling on, as the dashboard expects (spec section 4). */
async function enableLeveling(db: Db, guildId: string): Promise<void> {
  await db
    .insert(levelingSettings)
    .values({ guildId, enabled: true })
    .onConflictDoUpdate({ target: levelingSettings.guildId, set: { enabled: true, updatedAt: new Date() } });
}

/** Leveling settings, reward roles, boosts, and the leveling jobs. */
export function registerLevelingRoutes(app: FastifyInstance): void {
  const { db, queue } = app.services;

  defineRoute(app, routes.getLeveling, async ({ params }) => {
    const [leveling, roles, boosts] = await Promise.all([
      loadLevelingSettings(db, params.guildId).then(toSettings),
      db
        .select()
        .from(levelingRoles)
        .where(eq(levelingRoles.guildId, params.guildId))
        .orderBy(asc(levelingRoles.levelRequired), asc(levelingRoles.id)),
      db
        .select()
        .from(levelingBoosts)
        .where(eq(levelingBoosts.guildId, params.guildId))
        .orderBy(asc(levelingBoosts.id)),
    ]);
    return { leveling, roles: roles.map(toRole), boosts: boosts.map(toBoost) };
  });

  defineRoute(app, routes.putLeveling, async ({ params, body }) => {
    const changes = {
      ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      ...(body.xp_multiplier === undefined ? {} : { xpMultiplier: body.xp_multiplier }),
      ...(body.announcement_channel === undefined ? {} : { announcementChannel: body.announcement_channel }),
      ...(body.daily_overview_channel === undefined
        ? {}
        : { dailyOverviewChannel: body.daily_overview_channel }),
      ...(body.xp_per_message === undefined ? {} : { xpPerMessage: body.xp_per_message }),
      ...(body.message_cooldown_sec === undefined ? {} : { messageCooldownSec: body.message_cooldown_sec }),
    };
    const [row] = await db
      .insert(levelingSettings)
      .values({ guildId: params.guildId, ...changes })
      .onConflictDoUpdate({ target: levelingSettings.guildId, set: { ...changes, updatedAt: new Date() } })
      .returning();
    return toSettings(storedLevelingSettings(row));
  });

  defineRoute(app, routes.syncLevelingRoles, async ({ params, session }) => ({
    job_id: await enqueueGuildJob(queue, 'leveling.sync-roles', params.guildId, session.user.id),
  }));
  defineRoute(app, routes.resendLevelingOverview, async ({ params, session }) => ({
    job_id: await enqueueGuildJob(queue, 'leveling.resend-overview', params.guildId, session.user.id),
  }));
  defineRoute(app, routes.pruneLeavers, async ({ params, session }) => ({
    job_id: await enqueueGuildJob(queue, 'leveling.prune-leavers', params.guildId, session.user.id),
  }));

  defineRoute(app, routes.resetLevelingConfig, async ({ params }) => {
    await db.delete(levelingSettings).where(eq(levelingSettings.guildId, params.guildId));
    return toSettings(DEFAULT_LEVELING_SETTINGS);
  });

  defineRoute(app, routes.resetLevelingAll, async ({ params }) => {
    const guildId = params.guildId;
    await db.transaction(async (tx) => {
      await tx.delete(levelingSettings).where(eq(levelingSettings.guildId, guildId));
      await tx.delete(levelingRoles).where(eq(levelingRoles.guildId, guildId));
      await tx.delete(levelingBoosts).where(eq(levelingBoosts.guildId, guildId));
      await tx.delete(memberXp).where(eq(memberXp.guildId, guildId));
      await tx.delete(memberDailyXp).where(eq(memberDailyXp.guildId, guildId));
    });
  });

  defineRoute(app, routes.createLevelingRole, async ({ params, body }) => {
    const guildId = params.guildId;
    const role = await db.transaction(async (tx) => {
      // Serialize concurrent adds for one guild so the cap holds.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`leveling_roles:${guildId}`}))`);
      const [existing] = await tx
        .select({ n: count() })
        .from(levelingRoles)
        .where(eq(levelingRoles.guildId, guildId));
      if ((existing?.n ?? 0) >= MAX_LEVEL_ROLES) {
        throw new ApiError('conflict', `At most ${MAX_LEVEL_ROLES} level roles`);
      }
      const [row] = await tx
        .insert(levelingRoles)
        .values({
          guildId,
          roleName: body.role_name,
          levelRequired: body.level_required,
          isImageRole: body.is_image_role,
        })
        .returning();
      return row;
    });
    if (!role) throw new Error('Level role insert returned no row');
    await enableLeveling(db, guildId);
    return toRole(role);
  });

  defineRoute(app, routes.updateLevelingRole, async ({ params, body }) => {
    const changes = {
      ...(body.role_name === undefined ? {} : { roleName: body.role_name }),
      ...(body.level_required === undefined ? {} : { levelRequired: body.level_required }),
      ...(body.is_image_role === undefined ? {} : { isImageRole: body.is_image_role }),
    };
    const where = and(eq(levelingRoles.id, params.roleId), eq(levelingRoles.guildId, params.guildId));
    const [row] =
      Object.keys(changes).length === 0
        ? await db.select().from(levelingRoles).where(where)
        : await db.update(levelingRoles).set(changes).where(where).returning();
    if (!row) throw notFound('No such level role');
    return toRole(row);
  });

  defineRoute(app, routes.deleteLevelingRole, async ({ params }) => {
    const deleted = await db
      .delete(levelingRoles)
      .where(and(eq(levelingRoles.id, params.roleId), eq(levelingRoles.guildId, params.guildId)))
      .returning({ id: levelingRoles.id });
    if (deleted.length === 0) throw notFound('No such level role');
  });

  defineRoute(app, routes.createBoost, async ({ params, body }) => {
    const [row] = await db
      .insert(levelingBoosts)
      .values({
        guildId: params.guildId,
        multiplier: body.multiplier,
        userId: body.user_id,
        expiresAt: body.expires_at === null ? null : new Date(body.expires_at),
      })
      .returning();
    if (!row) throw new Error('Boost insert returned no row');
    await enableLeveling(db, params.guildId);
    return toBoost(row);
  });

  defineRoute(app, routes.createRoleBoost, async ({ params, body }) => {
    const [row] = await db
      .insert(levelingBoosts)
      .values({
        guildId: params.guildId,
        multiplier: body.multiplier,
        userId: roleBoostUserId(body.role_id),
        expiresAt: body.expires_at === null ? null : new Date(body.expires_at),
      })
      .returning();
    if (!row) throw new Error('Boost insert returned no row');
    await enableLeveling(db, params.guildId);
    return toBoost(row);
  });

  defineRoute(app, routes.deleteBoost, async ({ params }) => {
    const deleted = await db
      .delete(levelingBoosts)
      .where(and(eq(levelingBoosts.id, params.boostId), eq(levelingBoosts.guildId, params.guildId)))
      .returning({ id: levelingBoosts.id });
    if (deleted.length === 0) throw notFound('No such boost');
  });
}
