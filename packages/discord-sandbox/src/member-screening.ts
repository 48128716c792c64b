/**
 * Membership Screening and Onboarding as they touch members: who joins `pending`, the guild
 * member flags Discord sets, and the control API's checks of a completion (`PATCH
 * /_sandbox/guilds/:g/members/:u {pending?, flags?}`) and of a guild's `features`.
 */
import { GuildFeature, GuildMemberFlags } from 'discord-api-types/v10';
import type { SandboxGuild, SandboxMember } from './fixture.ts';
import type { SandboxState } from './state.ts';

/** The guild feature of Membership Screening ("the guild has enabled Membership Screening"). */
export const SCREENING_FEATURE: string = GuildFeature.MemberVerificationGateEnabled;

/** Every guild member flag Discord documents (DID_REJOIN 1 << 0 … AUTOMOD_QUARANTINED_GUILD_TAG 1 << 10). */
const KNOWN_MEMBER_FLAGS = Object.values(GuildMemberFlags)
  .filter((value): value is number => typeof value === 'number')
  .reduce((all, bit) => all | bit, 0);

/**
 * Whether a member joining now is `pending`: on Discord a guild with Membership Screening or
 * Onboarding holds new members as pending until they complete it.
 */
export function joinsPending(state: SandboxState, guild: SandboxGuild): boolean {
  return (guild.features ?? []).includes(SCREENING_FEATURE) || state.onboardingOf(guild.id).enabled;
}

/** The flags a member joins with: DID_REJOIN when they were a member before, else none. */
export function joiningFlags(guild: SandboxGuild, userId: string): number {
  return (guild.former_member_ids ?? []).includes(userId) ? GuildMemberFlags.DidRejoin : 0;
}

/** Remembers that a user left, so a later join carries DID_REJOIN. */
export function rememberLeaving(guild: SandboxGuild, userId: string): void {
  const former = guild.former_member_ids ?? [];
  if (!former.includes(userId)) guild.former_member_ids = [...former, userId];
}

/** True when the member is still pending (Discord then refuses them roles; see rest/guilds.ts). */
export function isPending(member: SandboxMember): boolean {
  return member.pending === true;
}

export type MemberCompletion = { pending?: boolean; flags?: number };

/**
 * Checks a completion body: only `pending` (a boolean) and `flags` (a whole number made of
 * Discord's member flags), at least one of them; a member who is no longer pending never becomes
 * pending again on Discord. Returns the change or a message saying what is wrong.
 */
export function parseCompletion(body: unknown, member: SandboxMember): MemberCompletion | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'The body must be a JSON object {pending?, flags?}';
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => key !== 'pending' && key !== 'flags');
  if (unknown.length > 0)
    return `Unknown field(s) ${unknown.join(', ')}: only "pending" and "flags" may be set`;
  const { pending, flags } = fields;
  if (pending === undefined && flags === undefined) return 'Give "pending", "flags" or both';
  if (pending !== undefined && typeof pending !== 'boolean') return '"pending" must be true or false';
  if (pending === true && !isPending(member)) {
    return 'This member is not pending: Discord never makes a member pending again';
  }
  if (
    flags !== undefined &&
    (typeof flags !== 'number' ||
      !Number.isInteger(flags) ||
      flags < 0 ||
      (flags & ~KNOWN_MEMBER_FLAGS) !== 0)
  ) {
    return `"flags" must be a whole number made of Discord's guild member flags (bits within ${KNOWN_MEMBER_FLAGS})`;
  }
  return {
    ...(pending !== undefined ? { pending } : {}),
    ...(flags !== undefined ? { flags: flags as number } : {}),
  };
}

/** Applies a completion; true when the member changed (then Discord sends GUILD_MEMBER_UPDATE). */
export function applyCompletion(member: SandboxMember, change: MemberCompletion): boolean {
  const before = { pending: member.pending ?? false, flags: member.flags ?? 0 };
  if (change.pending !== undefined) member.pending = change.pending;
  if (change.flags !== undefined) member.flags = change.flags;
  return before.pending !== (member.pending ?? false) || before.flags !== (member.flags ?? 0);
}

/**
 * Checks `features` for `PATCH /_sandbox/guilds/:g`: a list of Discord feature names (upper
 * case with underscores, such as MEMBER_VERIFICATION_GATE_ENABLED). Returns them without
 * repeats, or a message.
 */
export function parseFeatures(value: unknown): string[] | string {
  if (!Array.isArray(value) || !value.every((f) => typeof f === 'string' && /^[A-Z0-9_]{1,64}$/.test(f))) {
    return '"features" must be a list of Discord guild feature names such as MEMBER_VERIFICATION_GATE_ENABLED';
  }
  return [...new Set(value as string[])];
}
