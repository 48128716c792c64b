/** The editor's Save: creates or replaces the menu, and puts it in the cached list at once. */
import type { RoleMenu, RoleMenuList } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { queryKeys } from '../shared/queries.ts';
import type { bodyFromDraft } from './role-menus-form.ts';

export function useMenuSave(guildId: string, saved: RoleMenu | null, onCreated: (menuId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReturnType<typeof bodyFromDraft>) =>
      saved
        ? apiCall('updateRoleMenu', { params: { guildId, menuId: saved.id }, body })
        : apiCall('createRoleMenu', { params: { guildId }, body }),
    onSuccess: async (menu) => {
      // The list knows the menu at once (the editor of a new one reopens on its id).
      queryClient.setQueryData<RoleMenuList>(queryKeys.roleMenus(guildId), (list) =>
        list
          ? {
              menus: list.menus.some((item) => item.id === menu.id)
                ? list.menus.map((item) => (item.id === menu.id ? menu : item))
                : [...list.menus, menu],
            }
          : list,
      );
      if (!saved) onCreated(menu.id);
      await queryClient.invalidateQueries({ queryKey: queryKeys.roleMenus(guildId) });
    },
  });
}

export type MenuSave = ReturnType<typeof useMenuSave>;
