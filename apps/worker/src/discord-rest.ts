import {
  type APIGuildMember,
  type APIRole,
  type Client,
  DiscordAPIError,
  RESTJSONErrorCodes,
  Routes,
} from 'discord.js';

/**
 * Typed wrappers for the few REST calls jobs make. Jobs use REST (not the gateway cache) so
 * any worker process can run any guild's job, whichever shards it holds.
 */

export function isDiscordError(error: unknown, ...codes: number[]): error is DiscordAPIError {
  return error instanceof DiscordAPIError && typeof error.code === 'number' && codes.includes(error.code);
}

export const DiscordCodes = RESTJSONErrorCodes;

export async function fetchGuildRoles(client: Client, guildId: string): Promise<APIRole[]> {
  return (await client.rest.get(Routes.guildRoles(guildId))) as APIRole[];
}

export async function fetchMember(client: Client, guildId: string, userId: string): Promise<APIGuildMember> {
  return (await client.rest.get(Routes.guildMember(guildId, userId))) as APIGuildMember;
}

/** Position of the highest role a member holds (0 = only @everyone). */
export function highestRolePosition(roles: readonly APIRole[], memberRoleIds: readonly string[]): number {
  let highest = 0;
  for (const role of roles) {
    if (memberRoleIds.includes(role.id) && role.position > highest) highest = role.position;
  }
  return highest;
}
