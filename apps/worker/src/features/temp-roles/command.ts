import { type HistoryAction, historySubject } from '@spacecadet/contract';
import {
  parseDuration,
  roleGrantRefusal,
  tempRoleDurationRefusal,
  tempRoleEndSummary,
  tempRoleGrantSummary,
} from '@spacecadet/core';
import {
  claimExpiring,
  endTempRole,
  loadOpenTempRole,
  markTempRoleGiven,
  recordTempRole,
} from '@spacecadet/db/queries/temp-roles';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type ChatInputCommandInteraction,
  MessageFlags,
  PermissionFlagsBits,
} from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { interactionAnswerApi } from '../../discord-rest.ts';
import type { SlashCommand } from '../../interactions/types.ts';
import { guildRolesView } from '../../roles/guild-roles.ts';
import { recordCommandChange } from '../history/record-command.ts';
import { giveTempRole, scheduleExpiry, takeTempRole } from './roles.ts';

export const TEMPROLE_NEEDS_MANAGE_ROLES = 'You need the Manage Roles permission to give temporary roles.';

const memberOption = {
  type: ApplicationCommandOptionType.User,
  name: 'member',
  description: 'Who gets (or loses) the role',
  required: true,
} as const;
const roleOption = {
  type: ApplicationCommandOptionType.Role,
  name: 'role',
  description: 'The role',
  required: true,
} as const;

/** `<t:…:f> (<t:…:R>)`: the moment in the reader's own time zone, and how far off it is. */
function when(at: Date): string {
  const unix = Math.floor(at.getTime() / 1000);
  return `<t:${unix}:f> (<t:${unix}:R>)`;
}

/**
 * `/temprole add member role duration` and `/temprole remove member role`: an admin gives a
 * member a role for a time, or ends it now. Manage Roles is the command's default permission
 * and is checked again here (a server may have opened the command to others), as is the role:
 * of this server, not @everyone nor an integration's, and below both the admin's highest role
 * (the owner excepted, as in Discord) and the bot's. The answer is private; History records it
 * with the admin as the actor.
 */
export const tempRoleCommand: SlashCommand = {
  data: {
    name: 'temprole',
    description: 'Gives a member a role for a while (Manage Roles)',
    type: ApplicationCommandType.ChatInput,
    dm_permission: false,
    default_member_permissions: PermissionFlagsBits.ManageRoles.toString(),
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'add',
        description: 'Gives a member a role until the time is up',
        options: [
          memberOption,
          roleOption,
          {
            type: ApplicationCommandOptionType.String,
            name: 'duration',
            description: 'How long: 10m, 2h, 7d, 1w2d (1 minute to 365 days)',
            required: true,
            max_length: 32,
          },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'remove',
        description: 'Takes a temporary role back now',
        options: [memberOption, roleOption],
      },
    ],
  },
  async execute(interaction, deps) {
    const refusal = await refuse(interaction, deps);
    if (refusal) {
      await interaction.reply({
        content: refusal,
        flags: MessageFlags.Ephemeral,
        allowedMentions: { parse: [] },
      });
      return;
    }
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const content =
      interaction.options.getSubcommand() === 'add'
        ? await add(interaction, deps)
        : await remove(interaction, deps);
    await interactionAnswerApi(interaction.client).interactions.editReply(
      interaction.applicationId,
      interaction.token,
      { content, allowed_mentions: { parse: [] } },
    );
  },
};

/** The ids of the roles the invoking member holds. */
function invokerRoles(interaction: ChatInputCommandInteraction): string[] {
  const roles = interaction.member?.roles;
  if (!roles) return [];
  return Array.isArray(roles) ? roles : [...roles.cache.keys()];
}

/** Why the command cannot run as asked, or null. */
async function refuse(interaction: ChatInputCommandInteraction, deps: WorkerDeps): Promise<string | null> {
  if (!interaction.inGuild()) return 'Use this command in a server.';
  if (!interaction.memberPermissions?.has(PermissionFlagsBits.ManageRoles))
    return TEMPROLE_NEEDS_MANAGE_ROLES;
  const user = interaction.options.getUser('member');
  if (!user) return 'Pick the member.';
  if (!interaction.options.getMember('member')) return `<@${user.id}> is not a member of this server.`;
  const picked = interaction.options.getRole('role');
  if (!picked) return 'Pick the role.';
  const guildId = interaction.guildId;
  const view = await guildRolesView(deps.client, guildId);
  const role = view.role(picked.id);
  if (!role) return `<@&${picked.id}> is not a role of this server.`;
  const refusal = roleGrantRefusal(role, guildId, view.botTopPosition);
  if (refusal === 'everyone') return 'Everyone has @everyone already; pick another role.';
  if (refusal === 'managed')
    return `<@&${role.id}> belongs to an integration, and Discord lets no one give it; pick another role.`;
  if (refusal === 'not_below_bot')
    return `<@&${role.id}> is not below my highest role, so I cannot give or take it; move my role above it in Server Settings → Roles.`;
  const owner = interaction.guild?.ownerId === interaction.user.id;
  let invokerTop = 0;
  for (const id of invokerRoles(interaction)) invokerTop = Math.max(invokerTop, view.role(id)?.position ?? 0);
  if (!owner && role.position >= invokerTop)
    return `<@&${role.id}> is not below your highest role, so you cannot give or take it.`;
  if (interaction.options.getSubcommand(false) === 'add') {
    return tempRoleDurationRefusal(parseDuration(interaction.options.getString('duration') ?? ''));
  }
  return null;
}

async function add(interaction: ChatInputCommandInteraction, deps: WorkerDeps): Promise<string> {
  const guildId = interaction.guildId ?? '';
  const userId = interaction.options.getUser('member', true).id;
  const roleId = interaction.options.getRole('role', true).id;
  const seconds = parseDuration(interaction.options.getString('duration', true)) ?? 0;
  const row = await recordTempRole(deps.db, {
    guildId,
    userId,
    roleId,
    expiresAt: new Date(Date.now() + seconds * 1000),
    grantedBy: interaction.user.id,
    source: 'command',
    state: 'pending',
  });
  const outcome = await giveTempRole(deps, guildId, userId, roleId);
  if (outcome !== 'given') {
    await endTempRole(deps.db, row.id, 'not_given', ['pending']);
    return outcome === 'not_member'
      ? `<@${userId}> is not a member of this server.`
      : `I could not give <@&${roleId}>: it was deleted, or my role is not above it.`;
  }
  await markTempRoleGiven(deps.db, row.id);
  await scheduleExpiry(deps, row);
  await record(deps, interaction, 'temp_roles.grant', row.id, tempRoleGrantSummary(userId, roleId, seconds));
  return `Gave <@&${roleId}> to <@${userId}> until ${when(row.expiresAt)}.`;
}

async function remove(interaction: ChatInputCommandInteraction, deps: WorkerDeps): Promise<string> {
  const guildId = interaction.guildId ?? '';
  const userId = interaction.options.getUser('member', true).id;
  const roleId = interaction.options.getRole('role', true).id;
  const open = await loadOpenTempRole(deps.db, guildId, userId, roleId);
  const row = open ? await claimExpiring(deps.db, open.id) : null;
  if (!row) return `<@${userId}> has no temporary <@&${roleId}>.`;
  const outcome = await takeTempRole(deps, guildId, userId, roleId);
  const ended = await endTempRole(deps.db, row.id, 'ended_early', ['expiring']);
  if (ended) {
    await record(
      deps,
      interaction,
      'temp_roles.end',
      row.id,
      tempRoleEndSummary('ended_early', userId, roleId),
    );
  }
  return outcome === 'refused'
    ? `Ended the temporary <@&${roleId}> of <@${userId}>, but I could not take the role: my role is not above it.`
    : `Took <@&${roleId}> back from <@${userId}>.`;
}

function record(
  deps: WorkerDeps,
  interaction: ChatInputCommandInteraction,
  action: HistoryAction,
  id: number,
  summary: string,
): Promise<void> {
  return recordCommandChange(deps, interaction, action, {
    subject: historySubject('temp_roles', id),
    undoKind: null,
    summary,
  });
}
