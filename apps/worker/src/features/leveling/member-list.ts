import type { APIGuildMember, Client } from 'discord.js';
import { DiscordCodes, isDiscordError } from '../../discord-rest.ts';
import { guildMemberPages } from '../../guild-members.ts';

/**
 * Visits every member of the guild a page at a time (`guildMemberPages`). Resolves false, having
 * visited nothing, when Discord refuses the list (on Discord that means the bot's application
 * lacks the Server Members intent), so callers can fall back to asking member by member.
 */
export async function forEachMemberPage(
  client: Client,
  guildId: string,
  visit: (page: readonly APIGuildMember[]) => Promise<void>,
): Promise<boolean> {
  let visited = false;
  try {
    for await (const page of guildMemberPages(client, guildId)) {
      visited = true;
      await visit(page);
    }
    return true;
  } catch (error) {
    if (!visited && isDiscordError(error, DiscordCodes.MissingAccess)) return false;
    throw error;
  }
}

export const MEMBER_LIST_REFUSED_WARNING =
  "Discord did not let me read the member list (the bot's application needs the Server Members intent), so I checked members one by one.";
