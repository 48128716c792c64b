import { type HistoryAction, historySubject, MEMBER_XP_MAX } from '@spacecadet/contract';
import { changeMemberXp, type MemberXpChange } from '@spacecadet/db/queries/xp-tools';
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
import { recordCommandChange } from '../history/record-command.ts';
import { applyMemberDueRewards } from './apply-rewards.ts';
import { BOTS_HAVE_NO_XP } from './commands.ts';
import { goneRoleWarning, loadRewardPlan, type RewardOutcome, refusedRoleWarnings } from './rewards.ts';
import { MANAGE_ROLES_WARNING } from './sync-roles.ts';

export const XP_NEEDS_MANAGE_SERVER = 'You need the Manage Server permission to change XP.';
export const XP_AMOUNT_RANGE = `The amount must be a whole number from 0 to ${MEMBER_XP_MAX.toLocaleString('en-US')}.`;

type XpAction = 'set' | 'add' | 'remove' | 'reset';
const ACTIONS: readonly XpAction[] = ['set', 'add', 'remove', 'reset'];

const memberOption = {
  type: ApplicationCommandOptionType.User,
  name: 'member',
  description: 'Whose XP to change',
  required: true,
} as const;
const amountOption = (description: string) =>
  ({
    type: ApplicationCommandOptionType.Integer,
    name: 'amount',
    description,
    required: true,
    min_value: 0,
    max_value: MEMBER_XP_MAX,
  }) as const;

const number = (n: number) => n.toLocaleString('en-US');

/** What the admin reads after the change (the member is named, never pinged). */
function changeSentence(action: XpAction, amount: number, change: MemberXpChange): string {
  const who = `<@${change.userId}>`;
  const now = `${number(change.xp)} XP (level ${change.level})`;
  switch (action) {
    case 'set':
      return `Set ${who} to ${now}.`;
    case 'add':
      return `Gave ${who} ${number(amount)} XP: they now have ${now}.`;
    case 'remove':
      return `Took ${number(amount)} XP from ${who}: they now have ${now}.`;
    case 'reset':
      return `Reset ${who} to ${now}.`;
  }
}

/**
 * The History entry's line, in the dashboard's words for the same change ("Set the XP of
 * <@id>: 300 → 1200"); the History page shows the member's name.
 */
function historySummary(action: XpAction, amount: number, change: MemberXpChange): string {
  const who = `<@${change.userId}>`;
  const fromTo = `${change.previousXp} → ${change.xp}`;
  switch (action) {
    case 'set':
      return `Set the XP of ${who}: ${fromTo}`;
    case 'add':
      return `Gave ${who} ${amount} XP: ${fromTo}`;
    case 'remove':
      return `Took ${amount} XP from ${who}: ${fromTo}`;
    case 'reset':
      return `Reset the XP of ${who} (${change.previousXp} XP)`;
  }
}

/** The dashboard's action for the same change (its Undo writes the XP before back). */
const HISTORY_ACTION: Record<XpAction, HistoryAction> = {
  set: 'leveling.member_xp',
  add: 'leveling.member_xp',
  remove: 'leveling.member_xp',
  reset: 'leveling.member_reset',
};

function rewardsSentence(outcome: RewardOutcome): string {
  const names = (roles: RewardOutcome['added']) => roles.map((role) => role.roleName).join(', ');
  const parts = [
    outcome.added.length > 0 ? `gave ${names(outcome.added)}` : '',
    outcome.removed.length > 0 ? `removed ${names(outcome.removed)}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Rewards: ${parts.join('; ')}.` : '';
}

/**
 * `/xp set|add|remove|reset member [amount]`: an admin changes a member's XP (Manage Server,
 * checked again here whatever the server's command permissions say). The level follows, the
 * member's reward roles are brought in line at once (as `leveling.apply-rewards` does, which
 * then finds nothing due), and the answer is private.
 */
export const xpCommand: SlashCommand = {
  data: {
    name: 'xp',
    description: 'Changes a member’s XP (Manage Server)',
    type: ApplicationCommandType.ChatInput,
    dm_permission: false,
    default_member_permissions: PermissionFlagsBits.ManageGuild.toString(),
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'set',
        description: 'Sets a member’s XP',
        options: [memberOption, amountOption('Their XP from now on')],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'add',
        description: 'Gives a member XP',
        options: [memberOption, amountOption('How much XP to give')],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'remove',
        description: 'Takes XP from a member',
        options: [memberOption, amountOption('How much XP to take')],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'reset',
        description: 'Resets a member’s XP to 0',
        options: [memberOption],
      },
    ],
  },
  async execute(interaction, deps) {
    const refusal = refuse(interaction);
    if (refusal) {
      await interaction.reply({ content: refusal, flags: MessageFlags.Ephemeral });
      return;
    }
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const content = await changeXp(interaction, deps);
    await interactionAnswerApi(interaction.client).interactions.editReply(
      interaction.applicationId,
      interaction.token,
      { content, allowed_mentions: { parse: [] } },
    );
  },
};

/** Why the command cannot run as asked, or null. */
function refuse(interaction: ChatInputCommandInteraction): string | null {
  if (!interaction.inGuild()) return 'Use this command in a server.';
  if (!interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return XP_NEEDS_MANAGE_SERVER;
  const action = interaction.options.getSubcommand(false);
  if (!ACTIONS.includes(action as XpAction)) return 'Pick set, add, remove or reset.';
  const user = interaction.options.getUser('member');
  if (!user) return 'Pick the member whose XP to change.';
  if (user.bot) return BOTS_HAVE_NO_XP;
  if (!interaction.options.getMember('member')) return `<@${user.id}> is not a member of this server.`;
  if (action !== 'reset') {
    const amount = interaction.options.getInteger('amount');
    if (amount === null || !Number.isSafeInteger(amount) || amount < 0 || amount > MEMBER_XP_MAX) {
      return XP_AMOUNT_RANGE;
    }
  }
  return null;
}

async function changeXp(interaction: ChatInputCommandInteraction, deps: WorkerDeps): Promise<string> {
  const guildId = interaction.guildId ?? '';
  const action = interaction.options.getSubcommand() as XpAction;
  const userId = interaction.options.getUser('member', true).id;
  const amount = action === 'reset' ? 0 : interaction.options.getInteger('amount', true);
  const change = await changeMemberXp(
    deps.db,
    guildId,
    userId,
    action === 'set' || action === 'reset' ? { set: amount } : { add: action === 'add' ? amount : -amount },
  );
  await recordCommandChange(deps, interaction, HISTORY_ACTION[action], {
    subject: historySubject('leveling:xp', userId),
    undoKind: 'state',
    before: { xp: change.previousXp },
    after: { xp: change.xp },
    summary: historySummary(action, amount, change),
  });
  const lines = [changeSentence(action, amount, change)];

  const { plan, canManage, gone } = await loadRewardPlan(deps, guildId);
  const warnings = gone.map((role) => goneRoleWarning(role.roleName));
  if (plan.roles.length > 0 && !canManage) {
    // The mark stays: the next apply-rewards run (or Sync Roles) brings the roles in line.
    warnings.unshift(MANAGE_ROLES_WARNING);
  } else {
    const outcome = await applyMemberDueRewards(
      deps,
      guildId,
      { userId, level: change.level, dueAt: change.dueAt },
      plan,
    );
    lines.push(rewardsSentence(outcome));
    warnings.push(...refusedRoleWarnings(plan, outcome.refused));
  }
  return [...lines, ...warnings].filter(Boolean).join('\n');
}
