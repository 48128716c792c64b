import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import {
  createRoleMenu,
  deleteRoleMenu,
  listRoleMenus,
  postRoleMenu,
  type RoleMenuState,
  readRoleMenuState,
  toMenu,
  toMenuState,
  updateRoleMenu,
} from '../services/role-menus.ts';
import { defineRoute } from './define.ts';

/** "Renamed the role menu "A" to "B"", "Edited the role menu "A": options, color". */
function updateSummary(before: RoleMenuState, after: RoleMenuState): string {
  const fields = (Object.keys(after) as (keyof RoleMenuState)[]).filter(
    (key) =>
      key !== 'title' && key !== 'posted' && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  const rest = fields.map((field) => field.replaceAll('_', ' ')).join(', ');
  if (before.title !== after.title) {
    const renamed = `Renamed the role menu "${before.title}" to "${after.title}"`;
    return fields.length === 0 ? renamed : `${renamed} and edited its ${rest}`;
  }
  return fields.length === 0
    ? `Saved the role menu "${after.title}" unchanged`
    : `Edited the role menu "${after.title}": ${rest}`;
}

/**
 * Role menus of the admin's own: list, create, replace, delete, and post one (the worker's
 * `role-menus.post`). A posted menu follows an edit or a delete through `role-menus.repair`.
 */
export function registerRoleMenuRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  defineRoute(app, routes.listRoleMenus, async ({ params }) => ({
    menus: await listRoleMenus(db, params.guildId),
  }));

  defineRoute(app, routes.createRoleMenu, async ({ params, body, session, history }) => {
    const created = await createRoleMenu(app.services, params.guildId, body, session.user.id);
    history.state(
      `role_menus:menu:${created.id}`,
      null,
      toMenuState(created),
      `Created the role menu "${created.title}"`,
    );
    return toMenu(created);
  });

  defineRoute(app, routes.updateRoleMenu, async ({ params, body, session, requester, request, history }) => {
    const before = await readRoleMenuState(app.services, params.guildId, params.menuId);
    const updated = await updateRoleMenu(app.services, params.guildId, params.menuId, body, {
      userId: session.user.id,
      requester,
      log: request.log,
    });
    const after = toMenuState(updated);
    if (before) history.state(`role_menus:menu:${updated.id}`, before, after, updateSummary(before, after));
    return toMenu(updated);
  });

  defineRoute(app, routes.deleteRoleMenu, async ({ params, session, requester, request, history }) => {
    const before = await readRoleMenuState(app.services, params.guildId, params.menuId);
    await deleteRoleMenu(app.services, params.guildId, params.menuId, {
      userId: session.user.id,
      requester,
      log: request.log,
    });
    if (before)
      history.state(
        `role_menus:menu:${params.menuId}`,
        before,
        null,
        `Deleted the role menu "${before.title}"`,
      );
  });

  defineRoute(app, routes.postRoleMenu, async ({ params, requester, history }) => {
    const menu = await readRoleMenuState(app.services, params.guildId, params.menuId);
    const jobId = await postRoleMenu(app.services, params.guildId, params.menuId, requester);
    history.describe({
      subject: `role_menus:menu:${params.menuId}`,
      summary: `Posted the role menu "${menu?.title ?? params.menuId}"`,
    });
    return { job_id: jobId };
  });
}
