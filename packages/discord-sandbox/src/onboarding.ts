import {
  type APIGuildOnboarding,
  ChannelType,
  GuildOnboardingMode,
  PermissionFlagsBits,
  RoleFlags,
} from 'discord-api-types/v10';
import type { SandboxChannel, SandboxGuild, SandboxMember } from './fixture.ts';
import { memberUpdated } from './mutations.ts';
import type { SandboxState } from './state.ts';

/**
 * Guild onboarding beyond the REST shape: Discord's enable requirements, the IN_PROMPT role
 * flag, and a member answering the prompts (the control API's stand-in for the join flow).
 */

// Modify Guild Onboarding (discord-api-docs, docs/resources/guild.mdx): "there must be at least
// 7 Default Channels and at least 5 of them must allow sending messages to the @everyone role".
export const MIN_DEFAULT_CHANNELS = 7;
export const MIN_CHATTABLE_CHANNELS = 5;

/** @everyone's permissions in a channel: the guild-level bits with the channel's @everyone overwrite. */
function everyonePermissions(guild: SandboxGuild, channel: SandboxChannel): bigint {
  const everyone = guild.roles.find((r) => r.id === guild.id);
  const base = BigInt(everyone?.permissions ?? '0');
  if ((base & PermissionFlagsBits.Administrator) !== 0n) return base;
  const overwrite = channel.permission_overwrites?.find((o) => o.id === guild.id);
  if (!overwrite) return base;
  return (base & ~BigInt(overwrite.deny)) | BigInt(overwrite.allow);
}

// Channels members can write in; the fixture has only text channels today.
const CHAT_TYPES: ReadonlySet<ChannelType> = new Set([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

function chattable(guild: SandboxGuild, channel: SandboxChannel): boolean {
  if (!CHAT_TYPES.has(channel.type)) return false;
  const needed = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
  const bits = everyonePermissions(guild, channel);
  return (bits & PermissionFlagsBits.Administrator) !== 0n || (bits & needed) === needed;
}

/**
 * Whether an onboarding meets Discord's constraints to be enabled. ONBOARDING_DEFAULT counts
 * only the default channels; ONBOARDING_ADVANCED also counts the channels the questions lead to.
 */
export function meetsRequirements(guild: SandboxGuild, onboarding: APIGuildOnboarding): boolean {
  const ids = new Set(onboarding.default_channel_ids);
  if (onboarding.mode === GuildOnboardingMode.OnboardingAdvanced) {
    for (const prompt of onboarding.prompts) {
      for (const option of prompt.options) for (const id of option.channel_ids) ids.add(id);
    }
  }
  const channels = guild.channels.filter((c) => ids.has(c.id));
  return (
    channels.length >= MIN_DEFAULT_CHANNELS &&
    channels.filter((c) => chattable(guild, c)).length >= MIN_CHATTABLE_CHANNELS
  );
}

/**
 * Sets IN_PROMPT ("role can be selected by members in an onboarding prompt", role flags in the
 * permissions docs) on exactly the roles the prompts hand out. Discord documents no gateway
 * event for this, so none is sent.
 */
export function syncPromptRoleFlags(guild: SandboxGuild, onboarding: APIGuildOnboarding): void {
  const inPrompt = new Set(onboarding.prompts.flatMap((p) => p.options.flatMap((o) => o.role_ids)));
  for (const role of guild.roles) {
    const flags = inPrompt.has(role.id) ? role.flags | RoleFlags.InPrompt : role.flags & ~RoleFlags.InPrompt;
    role.flags = flags as RoleFlags;
  }
}

export type AnswerProblem = { status: 400; error: string; message: string };

/**
 * A member picks options, as in Discord's onboarding flow or its Channels & Roles tab: they get
 * every role of the chosen options (one GUILD_MEMBER_UPDATE if that changed anything). Options
 * must exist in the guild's onboarding, and a single-select prompt takes one option at most.
 */
export function answerOnboarding(
  state: SandboxState,
  guild: SandboxGuild,
  member: SandboxMember,
  optionIds: readonly string[],
): AnswerProblem | null {
  const prompts = state.onboardingOf(guild.id).prompts;
  const picked = new Set(optionIds);
  for (const id of picked) {
    if (!prompts.some((p) => p.options.some((o) => o.id === id))) {
      return {
        status: 400,
        error: 'unknown_option',
        message: `Option ${id} is not in this guild's onboarding`,
      };
    }
  }
  for (const prompt of prompts) {
    const chosen = prompt.options.filter((o) => picked.has(o.id));
    if (prompt.single_select && chosen.length > 1) {
      return {
        status: 400,
        error: 'single_select',
        message: `"${prompt.title}" takes only one option`,
      };
    }
  }
  const granted = prompts
    .flatMap((p) => p.options.filter((o) => picked.has(o.id)).flatMap((o) => o.role_ids))
    .filter((id) => guild.roles.some((r) => r.id === id) && !member.roles.includes(id));
  const added = [...new Set(granted)];
  if (added.length > 0) {
    member.roles = [...member.roles, ...added];
    memberUpdated(state, guild, member);
  }
  return null;
}
