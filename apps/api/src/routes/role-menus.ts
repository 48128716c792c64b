import {
  MAX_ROLE_MENUS,
  ROLE_MENU_MESSAGES,
  type RoleMenu,
  type RoleMenuInput,
  type RoleMenuOptionInput,
  routes,
} from '@spacecadet/contract';
import {
  colorIntToHex,
  hexToColorInt,
  ROLE_MENU_TEXT_MAX,
  type RoleMenuOption,
  roleMenuTextLength,
} from '@spacecadet/core';
import type { RoleMenuRow } from '@spacecadet/db';
import {
  createOwnMenu,
  deleteOwnMenu,
  loadOwnMenu,
  loadOwnMenus,
  type RoleMenuValues,
  requestMenuPost,
  updateOwnMenu,
} from '@spacecadet/db/queries/role-menus';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import type { GuildResources } from '../services/guild-resources.ts';
import { enqueueGuildJob } from '../services/jobs.ts';
import { assertOptionsGivable, postedLocation, queueMenusRepair } from '../services/role-menus.ts';
import { defineRoute } from './define.ts';

/** Stored as the editor shows it: ids and emojis trimmed, optional fields only when given. */
function toOption(option: RoleMenuOptionInput): RoleMenuOption {
  const emoji = option.emoji?.trim() ?? '';
  return {
    role_id: option.role_id.trim(),
    ...(option.label === undefined ? {} : { label: option.label }),
    ...(emoji === '' ? {} : { emoji }),
    ...(option.description === undefined ? {} : { description: option.description }),
  };
}

/** The body as stored: the color as Discord's integer, `max_roles` only where the mode reads it. */
function toValues(body: RoleMenuInput): RoleMenuValues {
  return {
    title: body.title.trim(),
    description: body.description,
    color: body.color === null ? null : hexToColorInt(body.color),
    channelId: body.channel_id,
    style: body.style,
    mode: body.mode,
    maxRoles: body.mode === 'limit' ? body.max_roles : null,
    requiredRoleId: body.required_role_id,
    options: body.options.map(toOption),
  };
}

function toMenu(row: RoleMenuRow): RoleMenu {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    color: row.color === null ? null : colorIntToHex(row.color),
    channel_id: row.channelId,
    style: row.style,
    mode: row.mode,
    max_roles: row.maxRoles,
    required_role_id: row.requiredRoleId,
    options: row.options,
    posted: postedLocation(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    updated_by: row.updatedBy,
  };
}

/**
 * Refuses a menu whose embed text, as core's layout draws it (the description and the options'
 * lines), is longer than Discord shows: its end would be cut off, reactions' lines included.
 */
function assertMenuFits(values: RoleMenuValues): void {
  const length = roleMenuTextLength({ id: '', ...values, max_roles: values.maxRoles });
  if (length <= ROLE_MENU_TEXT_MAX) return;
  const message = `description: with the options' lines the menu's text is ${length} characters, and Discord shows at most ${ROLE_MENU_TEXT_MAX}; shorten the description, or the options' labels and descriptions`;
  throw new ApiError('invalid_input', message, [{ path: 'description', message }]);
}

/**
 * What Discord would refuse when a member picks: an option's role the bot cannot give, a custom
 * emoji of another server. The required role is only read from members, never given, so any
 * role of the server will do (the route's guildRefs checked it is one).
 */
function assertMenuGivable(resources: GuildResources, guildId: string, body: RoleMenuInput): Promise<void> {
  return assertOptionsGivable(
    resources,
    guildId,
    body.options.map((option, index) => ({
      ...option,
      path: `options.${index}`,
      name: ROLE_MENU_MESSAGES.option(index),
    })),
  );
}

/**
 * Role menus of the admin's own: list, create, replace, delete, and post one (the worker's
 * `role-menus.post`). A posted menu follows an edit or a delete through `role-menus.repair`.
 */
export function registerRoleMenuRoutes(app: FastifyInstance): void {
  const { db, queue, guildResources } = app.services;

  defineRoute(app, routes.listRoleMenus, async ({ params }) => ({
    menus: (await loadOwnMenus(db, params.guildId)).map(toMenu),
  }));

  defineRoute(app, routes.createRoleMenu, async ({ params, body, session }) => {
    const values = toValues(body);
    assertMenuFits(values);
    await assertMenuGivable(guildResources, params.guildId, body);
    const created = await createOwnMenu(db, params.guildId, values, session.user.id, MAX_ROLE_MENUS);
    if (!created) throw new ApiError('invalid_input', ROLE_MENU_MESSAGES.tooMany);
    return toMenu(created);
  });

  defineRoute(app, routes.updateRoleMenu, async ({ params, body, session, requester, request }) => {
    if (!(await loadOwnMenu(db, params.guildId, params.menuId))) throw notFound(ROLE_MENU_MESSAGES.notFound);
    const values = toValues(body);
    assertMenuFits(values);
    await assertMenuGivable(guildResources, params.guildId, body);
    const updated = await updateOwnMenu(db, params.guildId, params.menuId, values, session.user.id);
    if (!updated) throw notFound(ROLE_MENU_MESSAGES.notFound);
    // A posted menu is edited in place (a channel change waits for Post, which moves it).
    if (updated.messageIds.length > 0) {
      await queueMenusRepair(
        queue,
        request.log,
        params.guildId,
        requester,
        'the 5-minute safety net updates the menu',
      );
    }
    return toMenu(updated);
  });

  defineRoute(app, routes.deleteRoleMenu, async ({ params, session, requester, request }) => {
    const deleted = await deleteOwnMenu(db, params.guildId, params.menuId, session.user.id);
    if (deleted === null) throw notFound(ROLE_MENU_MESSAGES.notFound);
    // Posted: the repair deletes its messages, then the row.
    if (deleted === 'marked') {
      await queueMenusRepair(
        queue,
        request.log,
        params.guildId,
        requester,
        "the 5-minute safety net deletes the menu's messages",
      );
    }
  });

  defineRoute(app, routes.postRoleMenu, async ({ params, requester }) => {
    if (!(await requestMenuPost(db, params.guildId, params.menuId)))
      throw notFound(ROLE_MENU_MESSAGES.notFound);
    return {
      job_id: await enqueueGuildJob(queue, 'role-menus.post', params.guildId, requester, {
        afterChange: true,
      }),
    };
  });
}
