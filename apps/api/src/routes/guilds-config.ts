import { routes } from '@spacecadet/contract';
import { CONFIG_MAX_BYTES, configByteLength } from '@spacecadet/core';
import { guildConfigs, type ReactionRoleEntry, reactionRoles } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { defineRoute } from './define.ts';

interface ReactionRowInput {
  emoji: string;
  role_id: string;
  label?: string | undefined;
  description?: string | undefined;
}

/** Stored as the dashboard shows them: trimmed, optional fields only when given. */
function toEntry(row: ReactionRowInput): ReactionRoleEntry {
  return {
    emoji: row.emoji.trim(),
    role_id: row.role_id.trim(),
    ...(row.label === undefined ? {} : { label: row.label }),
    ...(row.description === undefined ? {} : { description: row.description }),
  };
}

/** The raw JSON config and the reaction-roles lists of a guild. */
export function registerGuildConfigRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  defineRoute(app, routes.getConfig, async ({ params }) => {
    const [row] = await db
      .select()
      .from(guildConfigs)
      .where(eq(guildConfigs.guildId, params.guildId))
      .limit(1);
    if (!row) return { data: {}, updated_by: null, updated_at: null };
    return { data: row.data, updated_by: row.updatedBy, updated_at: row.updatedAt.toISOString() };
  });

  defineRoute(app, routes.putConfig, async ({ params, body, session }) => {
    if (configByteLength(body) > CONFIG_MAX_BYTES) {
      throw new ApiError('payload_too_large', 'Config is larger than 64 KiB');
    }
    const values = { data: body, updatedBy: session.user.id, updatedAt: new Date() };
    const [row] = await db
      .insert(guildConfigs)
      .values({ guildId: params.guildId, ...values })
      .onConflictDoUpdate({ target: guildConfigs.guildId, set: values })
      .returning();
    if (!row) throw new Error('Config upsert returned no row');
    return { updated_by: row.updatedBy, updated_at: row.updatedAt.toISOString() };
  });

  defineRoute(app, routes.getReactionRoles, async ({ params }) => {
    const [row] = await db
      .select()
      .from(reactionRoles)
      .where(eq(reactionRoles.guildId, params.guildId))
      .limit(1);
    if (!row) return { color_roles: [], personality_roles: [], updated_at: null, updated_by: null };
    return {
      color_roles: row.colorRoles.map(toEntry),
      personality_roles: row.personalityRoles.map(toEntry),
      updated_at: row.updatedAt.toISOString(),
      updated_by: row.updatedBy,
    };
  });

  defineRoute(app, routes.putReactionRoles, async ({ params, body, session }) => {
    const values = {
      colorRoles: body.color_roles.map(toEntry),
      personalityRoles: body.personality_roles.map(toEntry),
      updatedBy: session.user.id,
      updatedAt: new Date(),
    };
    const [row] = await db
      .insert(reactionRoles)
      .values({ guildId: params.guildId, ...values })
      .onConflictDoUpdate({ target: reactionRoles.guildId, set: values })
      .returning();
    if (!row) throw new Error('Reaction roles upsert returned no row');
    return { updated_by: row.updatedBy, updated_at: row.updatedAt.toISOString() };
  });
}
