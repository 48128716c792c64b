import type { StoredLevelingRole } from '@spacecadet/db/queries/leveling';
import { type APIRole, PermissionFlagsBits } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import type { JobContext } from '../../jobs/types.ts';
import { type GuildRolesView, roleAboveBotWarning } from '../../roles/guild-roles.ts';

/** Reward roles' names and permissions brought in line with the rewards (part of the role sync). */

/** What an image reward role lets its members do; every other reward role grants nothing. */
export const IMAGE_ROLE_PERMISSIONS = PermissionFlagsBits.AttachFiles | PermissionFlagsBits.EmbedLinks;

const wantedPermissions = (role: StoredLevelingRole) => (role.isImageRole ? IMAGE_ROLE_PERMISSIONS : 0n);

export interface EditOutcome {
  renamed: number;
  permissionsSet: number;
  /** Reward roles at or above the bot's highest role: Discord refuses to edit or give them. */
  aboveBot: Set<string>;
  warnings: string[];
}

/**
 * Each reward role's Discord role is named as the reward and carries its permissions; only
 * roles that differ are edited. Roles the bot cannot edit are warnings, not failures.
 */
export async function matchNamesAndPermissions(
  context: JobContext,
  roles: readonly StoredLevelingRole[],
  view: GuildRolesView,
  discordRoles: readonly APIRole[],
  fresh: ReadonlySet<string>,
): Promise<EditOutcome> {
  const { client } = context.deps;
  const guildId = context.payload.guild_id;
  const outcome: EditOutcome = { renamed: 0, permissionsSet: 0, aboveBot: new Set(), warnings: [] };
  const byId = new Map(discordRoles.map((role) => [role.id, role]));
  for (const reward of roles) {
    if (!reward.roleId) continue;
    const current = fresh.has(reward.roleId)
      ? { name: reward.roleName, permissions: '0', position: 1 }
      : byId.get(reward.roleId);
    if (!current) continue;
    if (!fresh.has(reward.roleId) && current.position >= view.botTopPosition) {
      outcome.aboveBot.add(reward.roleId);
      outcome.warnings.push(roleAboveBotWarning(current.name));
      continue;
    }
    const body: { name?: string; permissions?: string } = {};
    if (current.name !== reward.roleName) body.name = reward.roleName;
    const permissions = wantedPermissions(reward);
    if (BigInt(current.permissions) !== permissions) body.permissions = permissions.toString();
    if (Object.keys(body).length === 0) continue;
    if (!view.botCanManageRoles) continue;
    try {
      await discordApi(client).guilds.editRole(guildId, reward.roleId, body, {
        reason: 'Space Cadet: level reward role',
      });
      if (body.name !== undefined) outcome.renamed += 1;
      if (body.permissions !== undefined && !fresh.has(reward.roleId)) outcome.permissionsSet += 1;
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.UnknownRole)) continue;
      if (!isDiscordError(error, DiscordCodes.MissingPermissions)) throw error;
      outcome.warnings.push(
        body.permissions !== undefined && reward.isImageRole
          ? `I couldn't give "${reward.roleName}" the Attach Files and Embed Links permissions: my own role needs them (and Manage Roles).`
          : `I couldn't update the role "${current.name}": Discord refused (check my role's permissions and position).`,
      );
    }
  }
  return outcome;
}
