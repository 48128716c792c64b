import type { RoleMenu } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { UNDO_FROM_HISTORY, useConfirm } from '../shared/ConfirmDialog.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { LimitedButton } from '../shared/LimitedButton.tsx';
import { queryKeys, useChannels } from '../shared/queries.ts';
import { useMenuPost } from './MenuPostAction.tsx';
import {
  channelName,
  deleteConfirmText,
  MAX_ROLE_MENUS,
  MENU_LIMIT_NOTE,
  menuLocationText,
  modeLabel,
  styleLabel,
} from './role-menus-form.ts';

/** The server's menus, each with Edit, Post / Update and Delete; New menu above them. */
export function MenuList({
  guildId,
  menus,
  botInGuild,
  onEdit,
  onNew,
}: {
  guildId: string;
  menus: readonly RoleMenu[];
  botInGuild: boolean;
  onEdit: (menuId: string) => void;
  onNew: () => void;
}) {
  const channels = useChannels(guildId, botInGuild);
  const channelList = channels.data?.channels ?? [];
  const full = menus.length >= MAX_ROLE_MENUS;

  if (menus.length === 0) {
    return (
      <section className="card menu-empty" aria-labelledby="menu-empty-title">
        <h2 id="menu-empty-title">No role menus yet</h2>
        <p className="muted">
          A role menu is a message members pick roles from: buttons, a select menu or reactions, on any roles
          of your server the bot can give.
        </p>
        <div>
          <button type="button" className="btn btn-primary" onClick={onNew}>
            Create a menu
          </button>
        </div>
      </section>
    );
  }

  return (
    <>
      <div className="button-row menu-list-head">
        <p className="muted small">
          {menus.length} of {MAX_ROLE_MENUS} menus
        </p>
        <LimitedButton className="btn btn-primary" onClick={onNew} full={full} reason={MENU_LIMIT_NOTE}>
          New menu
        </LimitedButton>
      </div>
      <ul className="menu-list">
        {menus.map((menu) => (
          <li key={menu.id}>
            <MenuItem
              guildId={guildId}
              menu={menu}
              botInGuild={botInGuild}
              channels={channelList}
              onEdit={() => onEdit(menu.id)}
            />
          </li>
        ))}
      </ul>
    </>
  );
}

function MenuItem({
  guildId,
  menu,
  botInGuild,
  channels,
  onEdit,
}: {
  guildId: string;
  menu: RoleMenu;
  botInGuild: boolean;
  channels: ReadonlyArray<{ id: string; name: string }>;
  onEdit: () => void;
}) {
  const queryClient = useQueryClient();
  const post = useMenuPost(guildId, menu, botInGuild);
  const remove = useMutation({
    mutationFn: () => apiCall('deleteRoleMenu', { params: { guildId, menuId: menu.id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.roleMenus(guildId) }),
  });
  const confirmation = useConfirm();
  const titleId = `menu-${menu.id}-title`;
  const reasonId = `menu-${menu.id}-post-reason`;
  return (
    <section className="card menu-item" aria-labelledby={titleId}>
      <div className="menu-item-head">
        <MenuItemText menu={menu} titleId={titleId} channels={channels} />
        <div className="menu-item-actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            aria-label={`Edit ${menu.title}`}
            onClick={onEdit}
          >
            Edit
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={post.disabled}
            aria-label={`${post.label} ${menu.title}`}
            aria-describedby={post.reason ? reasonId : undefined}
            onClick={post.start}
          >
            {post.busy ? `${post.label}…` : post.label}
          </button>
          <button
            type="button"
            className="btn btn-danger btn-sm"
            disabled={remove.isPending}
            aria-label={`Delete ${menu.title}`}
            onClick={() =>
              confirmation.ask({
                title: 'Delete this menu?',
                question: deleteConfirmText(menu),
                confirmLabel: 'Delete menu',
                undoNote: UNDO_FROM_HISTORY,
                onConfirm: () => remove.mutateAsync(),
              })
            }
          >
            {remove.isPending ? 'Deleting…' : 'Delete'}
          </button>
        </div>
      </div>
      {post.reason ? (
        <p id={reasonId} className="muted small">
          {post.reason}
        </p>
      ) : null}
      {post.status}
      {confirmation.dialog}
      <ErrorBox onDismiss={() => remove.reset()}>{remove.isError ? errorText(remove.error) : null}</ErrorBox>
    </section>
  );
}

/** A menu's title, its facts (style, mode, channel, options) and where it is posted. */
function MenuItemText({
  menu,
  titleId,
  channels,
}: {
  menu: RoleMenu;
  titleId: string;
  channels: ReadonlyArray<{ id: string; name: string }>;
}) {
  const count = menu.options.length;
  return (
    <div className="menu-item-text">
      <h2 id={titleId}>{menu.title}</h2>
      <p className="menu-facts small">
        <span>{styleLabel(menu.style)}</span>
        <span>
          {modeLabel(menu.mode)}
          {menu.mode === 'limit' && menu.max_roles ? ` (up to ${menu.max_roles})` : ''}
        </span>
        <span>{menu.channel_id ? channelName(menu.channel_id, channels) : 'No channel'}</span>
        <span>
          {count} {count === 1 ? 'option' : 'options'}
        </span>
      </p>
      <p className={menu.posted ? 'small menu-posted is-posted' : 'small menu-posted'}>
        {menuLocationText(menu, channels)}
      </p>
    </div>
  );
}
