import { type RoleMenuOption, roleGrantRefusal } from '@spacecadet/core';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import { type GuildRolesView, roleAboveBotWarning } from '../../roles/guild-roles.ts';
import { menuName } from './names.ts';

/**
 * The menu's options the bot can act on: each role must be one of the guild's, not @everyone,
 * not managed by an integration, and below the bot's highest role. Every other row gets a
 * warning naming it; it stays on the panel as laid out (its picks are refused meanwhile). A
 * required role must be one of the guild's too, else every pick is refused: a warning says so.
 */
export function assignableOptions(
  menu: RoleMenuRow,
  guildId: string,
  roles: GuildRolesView,
): { options: RoleMenuOption[]; warnings: string[] } {
  const options: RoleMenuOption[] = [];
  const warnings: string[] = [];
  menu.options.forEach((option, index) => {
    const row = `${menuName(menu)}, row ${index + 1}${option.emoji ? ` (${option.emoji})` : ''}`;
    const role = roles.role(option.role_id);
    let problem: string | null = null;
    const refusal = role ? roleGrantRefusal(role, guildId, roles.botTopPosition) : null;
    if (!role) problem = 'its role no longer exists. Pick another role.';
    else if (refusal === 'everyone') problem = 'members cannot be given @everyone.';
    else if (refusal === 'managed')
      problem = `"${role.name}" is managed by an integration and cannot be given.`;
    else if (!roles.botCanManageRoles) problem = 'I need the Manage Roles permission to give roles.';
    else if (refusal === 'not_below_bot') problem = roleAboveBotWarning(role.name);
    const picking = menu.style === 'reactions' ? 'reacting with it' : 'picking it';
    if (problem) warnings.push(`${row}: ${problem} Members ${picking} get nothing until that is fixed.`);
    else options.push(option);
  });
  if (menu.requiredRoleId && !roles.role(menu.requiredRoleId)) {
    warnings.push(
      `${menuName(menu)}: its required role is not a role of this server (deleted?), so every member is refused. Pick another required role, or none.`,
    );
  }
  return { options, warnings };
}
