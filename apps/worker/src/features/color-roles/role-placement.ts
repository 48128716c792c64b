import type { APIRole } from 'discord.js';

export interface RolePositionChange {
  id: string;
  position: number;
}

/** Discord's role order, bottom first: by position; on a tie the older (smaller id) ranks higher. */
function rolesBottomUp(roles: readonly APIRole[]): APIRole[] {
  return [...roles].sort((a, b) => {
    if (a.position !== b.position) return a.position - b.position;
    return BigInt(a.id) < BigInt(b.id) ? 1 : BigInt(a.id) > BigInt(b.id) ? -1 : 0;
  });
}

/**
 * Where the colour roles must go so a member's colour shows over their other roles: together,
 * just below the bot's highest role (the highest place the bot may put them). Colour roles at
 * or above the bot's role cannot be moved by it and stay where they are. Returns the positions
 * for one `PATCH /guilds/{guild}/roles` call (keeping the colours' current order), or an empty
 * list when they are already there.
 */
export function colorRolePlacement(
  roles: readonly APIRole[],
  guildId: string,
  botRoleIds: readonly string[],
  colorRoleIds: ReadonlySet<string>,
): RolePositionChange[] {
  const ladder = rolesBottomUp(roles).filter((role) => role.id !== guildId);
  const botTop = ladder.findLastIndex((role) => botRoleIds.includes(role.id));
  if (botTop < 0) return [];
  const below = ladder.slice(0, botTop);
  const colors = below.filter((role) => colorRoleIds.has(role.id));
  if (colors.length === 0) return [];
  const inPlace = below.slice(below.length - colors.length).every((role) => colorRoleIds.has(role.id));
  if (inPlace) return [];
  // Positions count from 1 (just above @everyone) once Discord renumbers: the other roles
  // below the bot keep theirs, the colours take the places right above them.
  const others = below.length - colors.length;
  return colors.map((role, index) => ({ id: role.id, position: others + index + 1 }));
}
