import {
  type ColorGroup,
  type ColorRolesState,
  colorWarningsKey,
  MESSAGES,
  normalizeHex,
  PALETTE_MESSAGES,
  paletteColorLabel,
  routes,
} from '@spacecadet/contract';
import { colorGroups, colorPanels, colorShades, colors, type Db } from '@spacecadet/db';
import {
  loadColorGroups,
  loadColorRolesMode,
  loadPanelLocation,
  savePalette,
  savePanelChannel,
} from '@spacecadet/db/queries/color-roles';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError, notFound } from '../errors.ts';
import { managedGuildIds } from '../plugins/auth.ts';
import { isUndefinedTable } from '../services/dependency-errors.ts';
import { enqueueGuildJob } from '../services/jobs.ts';
import { defineRoute } from './define.ts';

/** A server whose database lacks the color tables answers 501, as the dashboard expects. */
async function withColorTables<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUndefinedTable(error)) throw error;
    const unavailable = new ApiError('color_roles_unavailable', MESSAGES.colorRolesUnavailable);
    unavailable.cause = error;
    throw unavailable;
  }
}

/** 501 before a job is queued that could only fail: every color table must exist. */
async function requireColorTables(db: Db): Promise<void> {
  await withColorTables(() =>
    Promise.all([
      db.select({ id: colorGroups.id }).from(colorGroups).limit(1),
      db.select({ id: colors.id }).from(colors).limit(1),
      db.select({ id: colorShades.id }).from(colorShades).limit(1),
      db.select({ guildId: colorPanels.guildId }).from(colorPanels).limit(1),
    ]),
  );
}

/** The palette in the contract's shape, from the one query the worker reads it with too. */
async function readPalette(db: Db, guildId: string): Promise<ColorGroup[]> {
  return (await loadColorGroups(db, guildId)).map((group) => ({
    group_id: group.id,
    group_name: group.name,
    is_expanded: group.isExpanded,
    colors: group.colors.map((color) => ({
      color_id: color.id,
      position: color.position,
      role_id: color.roleId,
      color_name: color.name,
      hex_code: color.hex,
      shades: color.shades.map((shade) => ({
        shade_id: shade.id,
        shade_name: shade.name,
        hex_code: shade.hex,
        role_id: shade.roleId,
      })),
    })),
  }));
}

/**
 * Roles the bot cannot hand out (its role is not above them), recorded by the worker in the
 * hash `colorWarningsKey(guild)`. Losing them while Redis is down is better than failing the page.
 */
async function readWarnings(redis: Redis, guildId: string): Promise<string[]> {
  try {
    return (await redis.hvals(colorWarningsKey(guildId))).sort();
  } catch {
    return [];
  }
}

/** What the color roles screen shows: palette, panel channel and message, mode, warnings. */
async function readState(db: Db, redis: Redis, guildId: string): Promise<ColorRolesState> {
  const [groups, panel, warnings, mode] = await Promise.all([
    readPalette(db, guildId),
    loadPanelLocation(db, guildId),
    readWarnings(redis, guildId),
    loadColorRolesMode(db, guildId),
  ]);
  return { groups, channel_id: panel.channelId, mode, message_id: panel.messageId, warnings };
}

/** The color roles screen: palette, panel channel, and the generate / post / reset jobs. */
export function registerColorRoleRoutes(app: FastifyInstance): void {
  const { db, queue, redis } = app.services;

  defineRoute(app, routes.getColorRoles, async ({ params }) =>
    withColorTables(() => readState(db, redis, params.guildId)),
  );

  // The body is checked by the contract (names, hex, counts); the ids against this guild's
  // palette here, in the save's transaction. Discord follows on the next Generate Roles.
  defineRoute(app, routes.putColorPalette, async ({ params, body }) =>
    withColorTables(async () => {
      const refused = await savePalette(
        db,
        params.guildId,
        body.colors.map((color) => ({
          id: color.color_id,
          name: color.name,
          hex: normalizeHex(color.hex),
          shades: color.shades.map((shade) => ({
            id: shade.shade_id,
            name: shade.name,
            hex: normalizeHex(shade.hex),
          })),
        })),
      );
      if (refused) {
        const color = body.colors[refused.index];
        const label = paletteColorLabel(refused.index, color?.name ?? '');
        throw new ApiError(
          'invalid_input',
          refused.kind === 'unknownColor'
            ? PALETTE_MESSAGES.unknownColor(label, refused.id)
            : PALETTE_MESSAGES.unknownShade(label, refused.id),
        );
      }
      return readState(db, redis, params.guildId);
    }),
  );

  defineRoute(app, routes.setColorRolesChannel, async ({ params, body }) =>
    withColorTables(async () => {
      await savePanelChannel(db, params.guildId, body.channel_id);
      return { channel_id: body.channel_id };
    }),
  );

  defineRoute(app, routes.generateColorRoles, async ({ params, requester }) => {
    await requireColorTables(db);
    return {
      job_id: await enqueueGuildJob(queue, 'color-roles.generate', params.guildId, requester),
    };
  });

  defineRoute(app, routes.postColorPanel, async ({ params, requester }) => {
    await requireColorTables(db);
    const panel = await loadPanelLocation(db, params.guildId);
    if (!panel.channelId) throw new ApiError('invalid_input', MESSAGES.selectChannelFirst);
    return {
      job_id: await enqueueGuildJob(queue, 'color-roles.post-panel', params.guildId, requester),
    };
  });

  // The job stores what it removes into this request's history entry (its undo restores it).
  defineRoute(app, routes.resetColorRoles, async ({ params, requester, history }) => {
    await requireColorTables(db);
    history.snapshotByJob('color_roles');
    return { job_id: await enqueueGuildJob(queue, 'color-roles.reset', params.guildId, requester) };
  });

  // The guard has answered 403 to users who manage no guild. The group is looked up only among
  // the user's guilds, so another guild's group and a missing one are the same 404.
  defineRoute(app, routes.expandColorGroup, async ({ body, session }) => {
    const guildIds = await managedGuildIds(app.services, session);
    return withColorTables(async () => {
      const updated = await db
        .update(colorGroups)
        .set({ isExpanded: body.is_expanded })
        .where(and(eq(colorGroups.id, body.group_id), inArray(colorGroups.guildId, guildIds)))
        .returning({ id: colorGroups.id });
      if (updated.length === 0) throw notFound('No such color group');
      return { group_id: body.group_id, is_expanded: body.is_expanded };
    });
  });
}

/** `withColorTables` for the color routes kept elsewhere (the reset preview): 501 without the tables. */
export function readColorTables<T>(work: () => Promise<T>): Promise<T> {
  return withColorTables(work);
}
