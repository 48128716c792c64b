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
  loadPalette,
  loadPanelLocation,
  savePalette,
  savePanelChannel,
} from '@spacecadet/db/queries/color-roles';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError, notFound } from '../errors.ts';
import { channelLabel } from '../history/route-checks.ts';
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

/** The palette as the PUT body gives it, with every stored id: what its history records. */
export interface PaletteState {
  colors: Array<{
    color_id?: number | undefined;
    name: string;
    hex: string;
    shades: Array<{ shade_id?: number | undefined; name: string; hex: string }>;
  }>;
}

export async function readPaletteState(db: Db, guildId: string): Promise<PaletteState> {
  const palette = await withColorTables(() => loadPalette(db, guildId));
  return {
    colors: palette.map((color) => ({
      color_id: color.id,
      name: color.name,
      hex: color.hex,
      shades: color.shades.map((shade) => ({ shade_id: shade.id, name: shade.name, hex: shade.hex })),
    })),
  };
}

/**
 * Replaces the palette (the PUT route and its undo): the body was checked by the contract, the
 * ids are checked against this guild's palette in the save's transaction (400 naming the color).
 */
export async function writePalette(db: Db, guildId: string, body: PaletteState): Promise<void> {
  await withColorTables(async () => {
    const refused = await savePalette(
      db,
      guildId,
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
  });
}

/** The color panel's channel (null: none picked), as the channel route's body gives it. */
export async function readColorChannelState(db: Db, guildId: string): Promise<{ channel_id: string | null }> {
  const panel = await withColorTables(() => loadPanelLocation(db, guildId));
  return { channel_id: panel.channelId };
}

/** Stores the panel's channel (the channel route and its undo); the panel moves on the next post. */
export async function writeColorChannel(db: Db, guildId: string, channelId: string | null): Promise<void> {
  await withColorTables(() => savePanelChannel(db, guildId, channelId));
}

/** "Edited the color palette: added Teal; removed Red; changed Blue". */
function paletteSummary(before: PaletteState, after: PaletteState): string {
  const beforeById = new Map(before.colors.map((color) => [color.color_id, color]));
  const afterIds = new Set(after.colors.map((color) => color.color_id));
  const added = after.colors.filter((color) => !beforeById.has(color.color_id)).map((c) => c.name);
  const removed = before.colors.filter((color) => !afterIds.has(color.color_id)).map((c) => c.name);
  const changed = after.colors
    .filter((color) => {
      const was = beforeById.get(color.color_id);
      return was !== undefined && JSON.stringify(was) !== JSON.stringify(color);
    })
    .map((color) => {
      const was = beforeById.get(color.color_id);
      return was && was.name !== color.name ? `${was.name} -> ${color.name}` : color.name;
    });
  const parts = [
    added.length > 0 ? `added ${added.join(', ')}` : '',
    removed.length > 0 ? `removed ${removed.join(', ')}` : '',
    changed.length > 0 ? `changed ${changed.join(', ')}` : '',
  ].filter((part) => part !== '');
  const reordered =
    parts.length === 0 &&
    JSON.stringify(before.colors.map((c) => c.color_id)) !==
      JSON.stringify(after.colors.map((c) => c.color_id));
  if (reordered) return 'Reordered the color palette';
  const line =
    parts.length === 0
      ? 'Saved the color palette unchanged'
      : `Edited the color palette: ${parts.join('; ')}`;
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** The color roles screen: palette, panel channel, and the generate / post / reset jobs. */
export function registerColorRoleRoutes(app: FastifyInstance): void {
  const { db, queue, redis } = app.services;

  defineRoute(app, routes.getColorRoles, async ({ params }) =>
    withColorTables(() => readState(db, redis, params.guildId)),
  );

  // The body is checked by the contract (names, hex, counts); the ids against this guild's
  // palette here, in the save's transaction. Discord follows on the next Generate Roles.
  defineRoute(app, routes.putColorPalette, async ({ params, body, history }) => {
    const before = await readPaletteState(db, params.guildId);
    await writePalette(db, params.guildId, body);
    const after = await readPaletteState(db, params.guildId);
    history.state('color_roles:palette', before, after, paletteSummary(before, after));
    return withColorTables(() => readState(db, redis, params.guildId));
  });

  defineRoute(app, routes.setColorRolesChannel, async ({ params, body, history }) => {
    const before = await readColorChannelState(db, params.guildId);
    await writeColorChannel(db, params.guildId, body.channel_id);
    const label = await channelLabel(app.services.guildResources, params.guildId, body.channel_id);
    history.state(
      'color_roles:channel',
      before,
      { channel_id: body.channel_id },
      `Set the color roles channel to ${label}`,
    );
    return { channel_id: body.channel_id };
  });

  defineRoute(app, routes.generateColorRoles, async ({ params, requester, history }) => {
    await requireColorTables(db);
    const palette = await readPaletteState(db, params.guildId);
    history.describe({
      subject: 'color_roles:roles',
      summary: `Generated the color roles (${palette.colors.length} colors)`,
    });
    return {
      job_id: await enqueueGuildJob(queue, 'color-roles.generate', params.guildId, requester),
    };
  });

  defineRoute(app, routes.postColorPanel, async ({ params, requester, history }) => {
    await requireColorTables(db);
    const panel = await loadPanelLocation(db, params.guildId);
    if (!panel.channelId) throw new ApiError('invalid_input', MESSAGES.selectChannelFirst);
    const label = await channelLabel(app.services.guildResources, params.guildId, panel.channelId);
    history.describe({ subject: 'color_roles:panel', summary: `Posted the color panel in ${label}` });
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
