import { routes } from '@spacecadet/contract';
import {
  deleteRoleMenu,
  type MenuWriter,
  menuBody,
  type RoleMenuState,
  readRoleMenuState,
  reviveRoleMenu,
  updateRoleMenu,
} from '../services/role-menus.ts';
import type { AreaRestorers, UndoContext } from './restorers.ts';
import { checkAsRoute, undoUserId } from './route-checks.ts';

function writer(context: UndoContext): MenuWriter {
  return { userId: undoUserId(context), requester: context.requester, log: context.request.log };
}

/**
 * Undo of role menus changes (see `restorers.ts`): one menu, `role_menus:menu:<id>`. Null: the
 * menu is deleted as the DELETE route does; a menu: the live one is replaced as PUT does, a
 * deleted one is brought back under its id (and posted again when it was posted).
 */
export const roleMenuRestorers: AreaRestorers = {
  state: {
    'role_menus:menu': {
      read: (context, id) => readRoleMenuState(context.app.services, context.guildId, id ?? ''),
      async restore(context, id, state) {
        const menuId = id ?? '';
        const { services } = context.app;
        const now = await readRoleMenuState(services, context.guildId, menuId);
        if (state === null) {
          if (now !== null) await deleteRoleMenu(services, context.guildId, menuId, writer(context));
          return {};
        }
        const menu = state as RoleMenuState;
        await checkAsRoute(context, routes.updateRoleMenu, menuBody(menu));
        if (now === null) await reviveRoleMenu(services, context.guildId, menuId, menu, writer(context));
        else await updateRoleMenu(services, context.guildId, menuId, menuBody(menu), writer(context));
        return {};
      },
    },
  },
  snapshot: {},
};
