import { parseRoleMenuCustomId, ROLE_MENU_CUSTOM_ID_PREFIX, roleGrantRefusal } from '@spacecadet/core';
import type { WorkerDeps } from '../../deps.ts';
import { clickMemberRoleIds, lastPickWins } from '../../interactions/member-lock.ts';
import {
  answerEphemeral,
  type EphemeralAnswer,
  followUpEphemeral,
  interactionAgeMs,
} from '../../interactions/respond.ts';
import type { ComponentRoute, PanelInteraction } from '../../interactions/types.ts';
import { guildRolesView } from '../../roles/guild-roles.ts';
import { ownMenu } from './menus.ts';
import { MENU_PICKS, type MenuPick, ROLE_MENU_OUT_OF_DATE } from './picks.ts';

export const ROLE_MENU_MISSING_MANAGE_ROLES =
  "I can't change your roles: I need the Manage Roles permission. Ask an admin.";
export const ROLE_MENU_ROLE_GONE = 'That role no longer exists. Ask an admin to update the menu.';

/** Why the bot cannot give a role, as the member is told. */
export function roleMenuCannotGive(roleId: string, reason: 'everyone' | 'managed' | 'not_below_bot'): string {
  return reason === 'not_below_bot'
    ? `I can't give you <@&${roleId}>: my role must be above it in Server Settings → Roles. Ask an admin.`
    : `I can't give you <@&${roleId}>: no bot can give that role. Ask an admin to take it off the menu.`;
}

/**
 * Allowance for Discord's clock against ours: the member's roles in a click are taken as current
 * this long before the click was made, so a change of ours that landed just before it is laid
 * over them again (the same value; harmless) rather than missed.
 */
const CLOCK_MARGIN_MS = 250;

/**
 * Member clicks on an admin's own role menu: a button (`menu:<menu id>:<role id>`) picks its
 * role; the select (`menu:<menu id>`) picks each chosen role in turn, as that many button
 * clicks. No id is trusted: the menu must be one of the clicking guild's own (not deleted) and
 * every role one of its options, else the member is told the menu is out of date. A role the bot
 * cannot give is answered at once from the gateway cache. Otherwise the click is acknowledged
 * as it arrives and recorded as the member's pick (`lastPickWins`, under the lock every menu
 * pick of the member shares, reactions included); its outcome is edited in once applied.
 *
 * A select is answered otherwise: Discord keeps showing the options a member chose after a
 * private answer, and sends no click when they choose an option already shown as chosen, so
 * "pick it again to drop it" could never reach us. Its first answer puts the message back as
 * posted (UPDATE_MESSAGE with its own components, which clears the member's choice), and the
 * outcome follows privately once applied.
 */
export const roleMenuInteractions: ComponentRoute = {
  prefix: ROLE_MENU_CUSTOM_ID_PREFIX,
  async handle(interaction, deps) {
    const seenAt = performance.now() - interactionAgeMs(interaction) - CLOCK_MARGIN_MS;
    if (interaction.isStringSelectMenu()) {
      await interaction.update({ components: interaction.message.components.map((row) => row.toJSON()) });
      const read = await readMenuPick(interaction, deps, seenAt);
      // Acknowledged already: the pick waits for its turn without a second first answer.
      const answer =
        'content' in read
          ? read
          : await lastPickWins(interaction, deps, MENU_PICKS, read.menuId, read, async () => {});
      await followUpEphemeral(interaction, answer.content);
      return;
    }
    await answerEphemeral(
      interaction,
      async (deferFirst): Promise<EphemeralAnswer> => {
        const read = await readMenuPick(interaction, deps, seenAt);
        if ('content' in read) return read;
        return lastPickWins(interaction, deps, MENU_PICKS, read.menuId, read, deferFirst);
      },
      { deferAtOnce: true },
    );
  },
};

/** The click's pick, or the answer it gets without one (out of date, a role the bot cannot give). */
async function readMenuPick(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  seenAt: number,
): Promise<MenuPick | EphemeralAnswer> {
  const parsed = parseRoleMenuCustomId(interaction.customId);
  const guildId = interaction.guildId;
  if (!parsed || !guildId) return { content: ROLE_MENU_OUT_OF_DATE };
  const menu = await ownMenu(deps, guildId, parsed.menuId);
  if (!menu) return { content: ROLE_MENU_OUT_OF_DATE };
  const roleIds =
    interaction.isButton() && parsed.roleId !== null
      ? [parsed.roleId]
      : interaction.isStringSelectMenu() && parsed.roleId === null
        ? [...new Set(interaction.values)]
        : [];
  const options = new Set(menu.options.map((option) => option.role_id));
  if (roleIds.length === 0 || roleIds.some((roleId) => !options.has(roleId))) {
    return { content: ROLE_MENU_OUT_OF_DATE };
  }
  const refused = await grantRefusal(deps, guildId, roleIds);
  if (refused) return { content: refused };
  return {
    guildId,
    userId: interaction.user.id,
    menuId: menu.id,
    roleIds,
    payloadRoles: [...clickMemberRoleIds(interaction)],
    seenAt,
  };
}

/**
 * Whether the bot cannot give one of the roles, from the gateway cache (no REST call: a click
 * must not spend the global limit its role change needs). Without the guild in cache nothing is
 * checked here; Discord's refusal is answered after the attempt instead.
 */
async function grantRefusal(
  deps: WorkerDeps,
  guildId: string,
  roleIds: readonly string[],
): Promise<string | null> {
  const guild = deps.client.guilds.cache.get(guildId);
  if (!guild?.available || !guild.members.me) return null;
  const roles = await guildRolesView(deps.client, guildId);
  if (!roles.botCanManageRoles) return ROLE_MENU_MISSING_MANAGE_ROLES;
  for (const roleId of roleIds) {
    const role = roles.role(roleId);
    if (!role) return ROLE_MENU_ROLE_GONE;
    const refusal = roleGrantRefusal(role, guildId, roles.botTopPosition);
    if (refusal) return roleMenuCannotGive(roleId, refusal);
  }
  return null;
}
