import { MESSAGES, routes } from '@spacecadet/contract';
import { loadPanelLocation } from '@spacecadet/db/queries/color-roles';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { channelLabel } from '../history/route-checks.ts';
import { managedGuildIds } from '../plugins/auth.ts';
import {
  type PaletteState,
  readColorChannelState,
  readColorRolesState,
  readPaletteState,
  requireColorTables,
  setColorGroupExpanded,
  withColorTables,
  writeColorChannel,
  writePalette,
} from '../services/color-roles.ts';
import { enqueueGuildJob } from '../services/jobs.ts';
import { defineRoute } from './define.ts';

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
    withColorTables(() => readColorRolesState(db, redis, params.guildId)),
  );

  // The body is checked by the contract (names, hex, counts); the ids against this guild's
  // palette here, in the save's transaction. Discord follows on the next Generate Roles.
  defineRoute(app, routes.putColorPalette, async ({ params, body, history }) => {
    const before = await readPaletteState(db, params.guildId);
    await writePalette(db, params.guildId, body);
    const after = await readPaletteState(db, params.guildId);
    history.state('color_roles:palette', before, after, paletteSummary(before, after));
    return withColorTables(() => readColorRolesState(db, redis, params.guildId));
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

  // The guard has answered 403 to users who manage no guild; the group is looked up only among
  // the user's guilds.
  defineRoute(app, routes.expandColorGroup, async ({ body, session }) => {
    const guildIds = await managedGuildIds(app.services, session);
    await setColorGroupExpanded(db, guildIds, body.group_id, body.is_expanded);
    return { group_id: body.group_id, is_expanded: body.is_expanded };
  });
}
