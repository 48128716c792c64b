import { type APIRole, OverwriteType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { SandboxChannel, SandboxGuild } from './fixture.ts';

export const ALL_PERMISSIONS: bigint = Object.values(PermissionFlagsBits).reduce((a, b) => a | b, 0n);

/** Roles a member holds, @everyone included. */
export function memberRoles(guild: SandboxGuild, userId: string): APIRole[] {
  const member = guild.members.find((m) => m.user_id === userId);
  if (!member) return [];
  return guild.roles.filter((r) => r.id === guild.id || member.roles.includes(r.id));
}

/** Guild-level permissions as Discord computes them (before any channel's overwrites). */
export function guildPermissions(guild: SandboxGuild, userId: string): bigint {
  if (guild.owner_id === userId) return ALL_PERMISSIONS;
  const member = guild.members.find((m) => m.user_id === userId);
  if (!member) return 0n;
  const bits = memberRoles(guild, userId).reduce((acc, r) => acc | BigInt(r.permissions), 0n);
  if ((bits & PermissionFlagsBits.Administrator) !== 0n) return ALL_PERMISSIONS;
  return bits;
}

const P = PermissionFlagsBits;

/** What a member loses in a text channel without Send Messages (Discord's implicit denials). */
const NEEDS_SEND = P.MentionEveryone | P.SendTTSMessages | P.AttachFiles | P.EmbedLinks;

/**
 * A member's permissions in a channel, as Discord computes them: the guild-level bits (owner
 * and Administrator get everything), then the channel's @everyone overwrite, the overwrites of
 * the member's roles combined (deny, then allow), then the member's own overwrite. Without
 * View Channel nothing else applies; without Send Messages no embeds, files or mentions.
 */
export function channelPermissions(guild: SandboxGuild, channel: SandboxChannel, userId: string): bigint {
  const base = guildPermissions(guild, userId);
  if ((base & P.Administrator) !== 0n || guild.owner_id === userId) return ALL_PERMISSIONS;
  const member = guild.members.find((m) => m.user_id === userId);
  if (!member) return 0n;
  const overwrites = channel.permission_overwrites ?? [];
  let bits = base;
  const everyone = overwrites.find((o) => o.id === guild.id);
  if (everyone) bits = (bits & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type === OverwriteType.Role && o.id !== guild.id && member.roles.includes(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  }
  bits = (bits & ~deny) | allow;
  const own = overwrites.find((o) => o.type === OverwriteType.Member && o.id === userId);
  if (own) bits = (bits & ~BigInt(own.deny)) | BigInt(own.allow);
  if ((bits & P.ViewChannel) === 0n) return 0n;
  if ((bits & P.SendMessages) === 0n) bits &= ~NEEDS_SEND;
  return bits;
}

export const hasAll = (bits: bigint, needed: bigint): boolean => (bits & needed) === needed;

export function canManageGuild(guild: SandboxGuild, userId: string): boolean {
  const bits = guildPermissions(guild, userId);
  return (
    guild.owner_id === userId ||
    (bits & (PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild)) !== 0n
  );
}

/** Discord's role order: higher position first; on a tie the older (smaller) id ranks higher. */
export function compareRoles(a: APIRole, b: APIRole): number {
  if (a.position !== b.position) return a.position - b.position;
  const ai = BigInt(a.id);
  const bi = BigInt(b.id);
  return ai === bi ? 0 : ai < bi ? 1 : -1;
}

export function highestRole(guild: SandboxGuild, userId: string): APIRole | undefined {
  return memberRoles(guild, userId).sort(compareRoles).at(-1);
}

/** True when `userId` may edit, delete or assign `role` (below its highest role, not managed). */
export function canManageRole(guild: SandboxGuild, userId: string, role: APIRole): boolean {
  if ((guildPermissions(guild, userId) & PermissionFlagsBits.ManageRoles) === 0n) return false;
  if (guild.owner_id === userId) return true;
  const top = highestRole(guild, userId);
  return top !== undefined && compareRoles(role, top) < 0;
}

export function sortedRoles(guild: SandboxGuild): APIRole[] {
  return [...guild.roles].sort(compareRoles);
}
