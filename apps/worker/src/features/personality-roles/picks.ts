import {
  PERSONALITY_CUSTOM_ID_PREFIX,
  type PersonalityAction,
  type PersonalityOptionRef,
  parsePersonalityCustomId,
  parsePersonalityOptionRef,
} from '@spacecadet/core';
import {
  loadPersonalityQuestion,
  type StoredPersonalityQuestion,
} from '@spacecadet/db/queries/personality-roles';
import { PermissionFlagsBits } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { clickMemberRoleIds, lastPickWins } from '../../interactions/member-lock.ts';
import { answerEphemeral, type DeferFirst, type EphemeralAnswer } from '../../interactions/respond.ts';
import type { ComponentRoute, PanelInteraction } from '../../interactions/types.ts';
import {
  type Choice,
  PERSONALITY_MISSING_MANAGE_ROLES_MESSAGE,
  PERSONALITY_PICKS,
  PERSONALITY_ROLE_ABOVE_BOT_MESSAGE,
  type PersonalityPick,
  roleMissing,
} from './apply-picks.ts';
import { personalityTargetKey } from './keys.ts';

export const PERSONALITY_PANEL_OUT_OF_DATE =
  'This question is out of date. Ask an admin to post the role messages again.';

/**
 * Member clicks on a personality question's message. Each click is acknowledged as it arrives
 * and recorded as one of the member's picks (`lastPickWins`, one lock per member for all of the
 * feature's questions); its outcome is edited in once applied, so it never waits behind other
 * role changes for the bot's global 50 requests a second. Only roles stored for this guild's
 * question options are ever added or removed, whatever the click or Redis says.
 */
export const personalityRoleInteractions: ComponentRoute = {
  prefix: PERSONALITY_CUSTOM_ID_PREFIX,
  async handle(interaction, deps) {
    const action = parsePersonalityCustomId(interaction.customId);
    const guildId = interaction.guildId;
    await answerEphemeral(
      interaction,
      async (deferFirst): Promise<EphemeralAnswer> => {
        if (!action || !guildId) return { content: PERSONALITY_PANEL_OUT_OF_DATE };
        const question = await loadPersonalityQuestion(deps.db, guildId, action.questionType);
        const choice = question?.isEnabled ? readChoice(interaction, action, question) : null;
        if (!question || !choice) return { content: PERSONALITY_PANEL_OUT_OF_DATE };
        return pickRoles(interaction, deps, guildId, question, choice, deferFirst);
      },
      { deferAtOnce: true },
    );
  },
};

/** The click's choice, or null when it does not fit the question as stored now. */
function readChoice(
  interaction: PanelInteraction,
  action: PersonalityAction,
  question: StoredPersonalityQuestion,
): Choice | null {
  switch (action.kind) {
    case 'button': {
      const option = optionIndexOf(question, action.option);
      if (!interaction.isButton() || option === null) return null;
      return { kind: question.isMultiSelect ? 'toggle' : 'only', option };
    }
    case 'clear':
      return interaction.isButton() ? { kind: 'exactly', options: [] } : null;
    case 'select': {
      if (!interaction.isStringSelectMenu()) return null;
      const options = [...new Set(interaction.values)].map((value) => {
        const ref = parsePersonalityOptionRef(value);
        return ref ? optionIndexOf(question, ref) : null;
      });
      if (options.some((index) => index === null)) return null;
      if (!question.isMultiSelect && options.length > 1) return null;
      return { kind: 'exactly', options: options.filter((index) => index !== null) };
    }
  }
}

/**
 * The position in `question.options` of the option a click names: by id, or (a message posted
 * before custom ids named options by id) by position. Null when it is not an option now.
 */
function optionIndexOf(question: StoredPersonalityQuestion, ref: PersonalityOptionRef): number | null {
  const index = 'id' in ref ? question.options.findIndex((option) => option.id === ref.id) : ref.index;
  return index >= 0 && index < question.options.length ? index : null;
}

async function pickRoles(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  guildId: string,
  question: StoredPersonalityQuestion,
  choice: Choice,
  deferFirst: DeferFirst,
): Promise<EphemeralAnswer> {
  const chosen = choice.kind === 'exactly' ? choice.options : [choice.option];
  const chosenRoles: string[] = [];
  for (const index of chosen) {
    const roleId = question.options[index]?.roleId;
    // Never hand out @everyone (its id is the guild's), whatever is stored.
    if (!roleId || roleId === guildId) return roleMissing(deps, guildId);
    chosenRoles.push(roleId);
  }
  // Checked from the gateway cache before the lock and any REST call, as color picks do: a
  // click the bot cannot carry out is answered at once and costs no request.
  const guild = interaction.inCachedGuild() ? interaction.guild : null;
  const me = guild?.members.me;
  for (const roleId of chosenRoles) {
    const role = guild?.roles.cache.get(roleId);
    if (guild && !role) return roleMissing(deps, guildId);
    if (me && !me.permissions.has(PermissionFlagsBits.ManageRoles)) {
      return { content: PERSONALITY_MISSING_MANAGE_ROLES_MESSAGE };
    }
    if (me && role && role.comparePositionTo(me.roles.highest) >= 0) {
      return { content: PERSONALITY_ROLE_ABOVE_BOT_MESSAGE };
    }
  }

  const pick: PersonalityPick = {
    questionType: question.questionType,
    guildId,
    userId: interaction.user.id,
    choice,
    chosenRoles,
    title: question.title,
    options: question.options.map((option) => ({
      roleId: option.roleId,
      label: option.label,
      targetKey: personalityTargetKey(option),
    })),
    payloadRoles: [...clickMemberRoleIds(interaction)],
    joinedAt: clickMemberJoinedAt(interaction),
  };
  return lastPickWins(interaction, deps, PERSONALITY_PICKS, question.questionType, pick, deferFirst);
}

/** When the clicking member joined, as the interaction says (ISO), for insights. */
function clickMemberJoinedAt(interaction: PanelInteraction): string | null {
  const member = interaction.member;
  if (!member) return null;
  if ('joined_at' in member) return member.joined_at ?? null;
  return member.joinedAt?.toISOString() ?? null;
}
