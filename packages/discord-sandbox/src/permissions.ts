import { type APIRole, PermissionFlagsBits } from 'discord-api-types/v10';
import type { SandboxGuild } from './fixture.ts';

export const ALL_PERMISSIONS: bigint = Object.values(PermissionFlagsBits).reduce((a, b) => a | b, 0n);

/** Roles a member holds, @everyone included. */
export function memberRoles(guild: SandboxGuild, userId: string): APIRole[] {
  const member = guild.members.find((m) => m.user_id === userId);
  if (!member) return [];
  return guild.roles.filter((r) => r.id === guild.id || member.roles.includes(r.id));
}

/** Guild-level permissions as Discord computes them (channel overwrites are not modelled). */
export function guildPermissions(guild: SandboxGuild, userId: string): bigint {
  if (guild.owner_id === userId) return ALL_PERMISSIONS;
  const member = guild.members.find((m) => m.user_id === userId);
  if (!member) return 0n;
  const bits = memberRoles(guild, userId).reduce((acc, r) => acc | BigInt(r.permissions), 0n);
  if ((bits & PermissionFlagsBits.Administrator) !== 0n) return ALL_PERMISSIONS;
  return bits;
}

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
