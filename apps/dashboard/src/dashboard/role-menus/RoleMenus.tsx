import type { GuildRole } from '@spacecadet/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { apiCall } from '../../lib/api.ts';
import { BotNotInGuild, GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { GuildSelect } from '../shared/GuildSelect.tsx';
import { useGuildRoles } from '../shared/guild-lookups.ts';
import { queryKeys } from '../shared/queries.ts';
import { MenuEditor } from './MenuEditor.tsx';
import { MenuList } from './MenuList.tsx';
import '../../styles/role-menus.css';

/** `?menu=new` opens the editor of a new menu, `?menu=<id>` a saved one's; none: the list. */
const MENU_PARAM = 'menu';
const NEW_MENU = 'new';

export default function RoleMenus() {
  return (
    <GuildPage
      title="Role Menus"
      className="role-menus-page"
      head={() => <GuildSelect />}
      noGuild={<p className="muted">Pick a server to edit its role menus.</p>}
    >
      {(guildId) => <RoleMenusScreen guildId={guildId} />}
    </GuildPage>
  );
}

function RoleMenusScreen({ guildId }: { guildId: string }) {
  const [search, setSearch] = useSearchParams();
  const opened = search.get(MENU_PARAM);
  /** A menu this editor just created: its editor stays the one the admin was typing in. */
  const [created, setCreated] = useState<string | null>(null);
  const state = useQuery({
    queryKey: queryKeys.roleMenus(guildId),
    queryFn: () => apiCall('listRoleMenus', { params: { guildId } }),
  });
  const roleList = useGuildRoles(guildId);
  const roles = useMemo(
    () => new Map<string, GuildRole>((roleList.data?.roles ?? []).map((role) => [role.id, role])),
    [roleList.data],
  );
  const guard = usePageGuard(guildId, state, { loading: 'Loading role menus…', bot: true });
  if (!guard.ready) return guard.view;

  const open = (menu: string | null) => {
    setSearch(menu ? { guild: guildId, [MENU_PARAM]: menu } : { guild: guildId });
    window.scrollTo?.({ top: 0 });
  };
  const menus = guard.data.menus;

  if (opened !== null) {
    const saved = opened === NEW_MENU ? null : (menus.find((menu) => menu.id === opened) ?? null);
    if (opened !== NEW_MENU && !saved) {
      return (
        <>
          {guard.banner}
          <div className="card">
            <p>This role menu is not in this server any more (it may have been deleted).</p>
            <button type="button" className="btn btn-secondary" onClick={() => open(null)}>
              Back to the menus
            </button>
          </div>
        </>
      );
    }
    return (
      <>
        {guard.banner}
        <MenuEditor
          key={opened === created ? NEW_MENU : opened}
          guildId={guildId}
          saved={saved}
          botInGuild={guard.botInGuild}
          roles={roles}
          onCreated={(menuId) => {
            setCreated(menuId);
            setSearch({ guild: guildId, [MENU_PARAM]: menuId }, { replace: true });
          }}
          onBack={() => open(null)}
        />
      </>
    );
  }

  return (
    <>
      {guard.banner}
      <p className="muted page-intro">
        Menus of your own on any roles the bot can give: buttons, a select menu or reactions. Members pick in
        Discord; the bot answers them privately (buttons and selects) and gives or takes the roles.
      </p>
      {guard.botInGuild ? null : <BotNotInGuild guildId={guildId} />}
      <MenuList
        guildId={guildId}
        menus={menus}
        botInGuild={guard.botInGuild}
        onEdit={(menuId) => open(menuId)}
        onNew={() => open(NEW_MENU)}
      />
    </>
  );
}
