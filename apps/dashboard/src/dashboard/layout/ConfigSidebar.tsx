import { useState } from 'react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import {
  getSidebarCollapsed,
  getSidebarGroupsOpen,
  setSidebarCollapsed,
  setSidebarGroupsOpen,
} from '../../lib/preferences.ts';
import { withGuild } from '../shared/guild-param.ts';
import { groupOfPath, SERVER_LINKS, SIDEBAR_GROUPS } from '../shared/nav.ts';

export function ConfigSidebar({ guildId }: { guildId: string | null }) {
  const [collapsed, setCollapsed] = useState(getSidebarCollapsed);
  const [open, setOpen] = useState(getSidebarGroupsOpen);
  // The current page's group opens whenever the route enters it (its link is then visible and
  // marked aria-current="page"); the user can still close it afterwards.
  const { pathname } = useLocation();
  const [seenPath, setSeenPath] = useState<string | null>(null);
  if (seenPath !== pathname) {
    setSeenPath(pathname);
    const current = groupOfPath(pathname);
    if (current && open[current] !== true) setOpen({ ...open, [current]: true });
  }

  const toggleCollapsed = () => {
    setCollapsed(!collapsed);
    setSidebarCollapsed(!collapsed);
  };
  const toggleGroup = (name: string) => {
    const next = { ...open, [name]: !open[name] };
    setOpen(next);
    setSidebarGroupsOpen(next);
  };

  return (
    <aside className={`config-sidebar${collapsed ? ' collapsed' : ''}`} aria-label="Configuration">
      {/* The aside stretches to the page's height (its background); this part stays in view. */}
      <div className="config-sidebar-inner">
        <button
          type="button"
          className="btn btn-ghost btn-sm sidebar-toggle"
          aria-expanded={!collapsed}
          aria-controls="config-groups"
          onClick={toggleCollapsed}
        >
          <span aria-hidden="true">{collapsed ? '»' : '«'}</span>
          <span className="sidebar-toggle-label">Settings</span>
        </button>
        <div id="config-groups" className="sidebar-groups" hidden={collapsed}>
          {guildId ? (
            <ul className="sidebar-links sidebar-server-links" aria-label="Server pages">
              {SERVER_LINKS.map((link) => (
                <li key={link.path}>
                  <RouterNavLink className="sidebar-link" to={withGuild(link.path, guildId)} end>
                    {link.label}
                  </RouterNavLink>
                </li>
              ))}
            </ul>
          ) : null}
          {SIDEBAR_GROUPS.map((group) => (
            <SidebarGroup
              key={group.name}
              group={group}
              guildId={guildId}
              isOpen={open[group.name] === true}
              onToggle={() => toggleGroup(group.name)}
            />
          ))}
        </div>
        <p className="sidebar-footer">v0.1</p>
      </div>
    </aside>
  );
}

/** One group of settings pages: its button, which opens and closes it, and its links. */
function SidebarGroup({
  group,
  guildId,
  isOpen,
  onToggle,
}: {
  group: (typeof SIDEBAR_GROUPS)[number];
  guildId: string | null;
  isOpen: boolean;
  onToggle: () => void;
}) {
  const listId = `sidebar-group-${group.name.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section className="sidebar-group">
      <button
        type="button"
        className="sidebar-group-button"
        aria-expanded={isOpen}
        aria-controls={listId}
        onClick={onToggle}
      >
        <span>{group.name}</span>
        <span className="chevron" aria-hidden="true" />
      </button>
      <ul id={listId} className="sidebar-links" hidden={!isOpen}>
        {group.links.map((link) => (
          <li key={link.path}>
            <RouterNavLink
              className="sidebar-link"
              data-status={link.status}
              to={withGuild(link.path, guildId)}
              end
            >
              {link.label}
            </RouterNavLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
