import { PermissionFlagsBits, Routes } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, isDiscordError } from '../../discord-rest.ts';
import type { EphemeralAnswer } from '../../interactions/respond.ts';
import type { PanelInteraction } from '../../interactions/types.ts';
import { paletteRoleIds, type StoredColor } from './palette-store.ts';
import { clearColorWarnings, recordColorWarning, roleAboveBotWarning } from './warnings.ts';

export const ROLE_ABOVE_BOT_MESSAGE =
  "I can't give you that role: my role must be above it in Server Settings → Roles. Ask an admin.";
export const MISSING_MANAGE_ROLES_MESSAGE =
  "I can't give you that role: I need the Manage Roles permission. Ask an admin.";
export const ROLE_MISSING_MESSAGE = "That color's role is missing. Ask an admin to run Generate Roles.";
const REASON = 'Space Cadet: color pick';

/**
 * Gives the member `choice`'s role and takes away every other colour role of the palette, so
 * a member holds one colour at a time. A role the bot cannot manage gets the member a clear
 * answer and the admin a dashboard warning instead of a silent failure.
 */
export async function assignColorRole(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  palette: readonly StoredColor[],
  choice: { name: string; roleId: string | null },
): Promise<EphemeralAnswer> {
  const { client, redis, config } = deps;
  const guildId = interaction.guildId;
  const roleId = choice.roleId;
  if (!guildId || !roleId) return { content: ROLE_MISSING_MESSAGE };

  const guild = interaction.inCachedGuild() ? interaction.guild : null;
  if (guild) {
    const role = guild.roles.cache.get(roleId);
    const me = guild.members.me;
    if (!role) return { content: ROLE_MISSING_MESSAGE };
    if (me && !me.permissions.has(PermissionFlagsBits.ManageRoles)) {
      return { content: MISSING_MANAGE_ROLES_MESSAGE };
    }
    if (me && role.comparePositionTo(me.roles.highest) >= 0) {
      await recordColorWarning(redis, config.redisPrefix, guildId, roleId, roleAboveBotWarning(role.name));
      return { content: ROLE_ABOVE_BOT_MESSAGE };
    }
  }

  const held = memberRoleIds(interaction);
  const colorRoles = paletteRoleIds(palette);
  const userId = interaction.user.id;
  try {
    if (!held.includes(roleId)) {
      await client.rest.put(Routes.guildMemberRole(guildId, userId, roleId), { reason: REASON });
    }
    for (const other of held) {
      if (other !== roleId && colorRoles.has(other)) {
        await client.rest.delete(Routes.guildMemberRole(guildId, userId, other), { reason: REASON });
      }
    }
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.MissingPermissions)) {
      const name = guild?.roles.cache.get(roleId)?.name ?? choice.name;
      await recordColorWarning(redis, config.redisPrefix, guildId, roleId, roleAboveBotWarning(name));
      return { content: ROLE_ABOVE_BOT_MESSAGE };
    }
    if (isDiscordError(error, DiscordCodes.UnknownRole)) return { content: ROLE_MISSING_MESSAGE };
    throw error;
  }
  await clearColorWarnings(redis, config.redisPrefix, guildId, [roleId]);
  return { content: `You now have the **${choice.name}** color.` };
}

function memberRoleIds(interaction: PanelInteraction): string[] {
  const member = interaction.member;
  if (!member) return [];
  return Array.isArray(member.roles) ? [...member.roles] : [...member.roles.cache.keys()];
}
