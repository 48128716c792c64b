import {
  forgetRemovedColorRole,
  loadPanelLocation,
  loadRemovedColorRoles,
  savePanelMessage,
} from '@spacecadet/db/queries/color-roles';
import type { APIRole } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import { editGuildMessage } from '../../guild-scope.ts';
import type { JobContext } from '../../jobs/types.ts';
import type { RoleTarget } from './role-targets.ts';

const EDIT_REASON = 'Space Cadet: color renamed or recolored';
const DELETE_REASON = 'Space Cadet: color removed from the palette';

export interface PaletteSync {
  /** Roles renamed or recolored in place (members keep them). */
  edited: number;
  /** Roles of removed colours deleted. */
  deleted: number;
  warnings: string[];
}

/**
 * Brings Discord in line with an edited palette (the part Generate Roles adds to creating
 * missing roles): deletes the roles of colours and shades the admin removed (recorded by the
 * palette save), and renames / recolors in place each live role whose colour or shade was
 * renamed or recolored, so its members keep it. A removed role is forgotten only once Discord
 * deleted it (or it was gone), so a retry deletes the rest; one the bot may not delete stays
 * recorded, with a warning.
 */
export async function syncPaletteRoles(
  context: JobContext,
  targets: readonly RoleTarget[],
  roles: readonly APIRole[],
): Promise<PaletteSync> {
  const { client, db } = context.deps;
  const guildId = context.payload.guild_id;
  const api = discordApi(client);
  const result: PaletteSync = { edited: 0, deleted: 0, warnings: [] };
  const live = new Map(roles.map((role) => [role.id, role]));

  const current = new Set(targets.flatMap((target) => target.roleId ?? []));
  for (const removed of await loadRemovedColorRoles(db, guildId)) {
    // A role id a kept colour records again is not deleted (it cannot be, but be sure).
    if (!current.has(removed.roleId) && live.has(removed.roleId)) {
      try {
        await api.guilds.deleteRole(guildId, removed.roleId, { reason: DELETE_REASON });
        result.deleted += 1;
      } catch (error) {
        if (isDiscordError(error, DiscordCodes.MissingPermissions)) {
          result.warnings.push(
            `I could not delete the role "${removed.name}" of a removed color: my role must be above it. Delete it by hand.`,
          );
          continue;
        }
        if (!isDiscordError(error, DiscordCodes.UnknownRole)) throw error;
      }
    }
    await forgetRemovedColorRole(db, guildId, removed.roleId);
  }

  for (const target of targets) {
    const role = target.roleId ? live.get(target.roleId) : undefined;
    if (!role || (role.name === target.name && role.color === target.color)) continue;
    try {
      await api.guilds.editRole(
        guildId,
        role.id,
        { name: target.name, color: target.color },
        { reason: EDIT_REASON },
      );
      result.edited += 1;
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.MissingPermissions)) {
        result.warnings.push(
          `I could not rename or recolor the role "${role.name}" to "${target.name}": my role must be above it in Server Settings → Roles.`,
        );
      } else if (!isDiscordError(error, DiscordCodes.UnknownRole)) {
        throw error;
      }
    }
  }
  return result;
}

/**
 * After Generate Roles brought the roles in line with an edited palette, the posted panel is
 * edited in place so its buttons show the palette as it is now (a renamed colour's old button
 * would find no colour). Only when the palette was edited since the panel was posted (a mode
 * switch alone is left to Post / Update Panel, as before) and only where the panel is: one
 * waiting to move to another channel, or gone, waits for Post / Update Panel (or the repair).
 * Returns whether it was updated.
 */
export async function refreshPostedPanel(
  context: JobContext,
  body: Parameters<typeof editGuildMessage>[3],
): Promise<boolean> {
  const { client, db } = context.deps;
  const guildId = context.payload.guild_id;
  const location = await loadPanelLocation(db, guildId);
  const { messageId, channelId } = location;
  if (!location.paletteEdited || !messageId || !channelId || location.messageChannelId !== channelId)
    return false;
  try {
    if (!(await editGuildMessage(client, channelId, messageId, body))) return false;
  } catch (error) {
    if (
      isDiscordError(
        error,
        DiscordCodes.UnknownChannel,
        DiscordCodes.MissingAccess,
        DiscordCodes.MissingPermissions,
      )
    )
      return false;
    throw error;
  }
  await savePanelMessage(db, guildId, { id: messageId, channelId });
  return true;
}
