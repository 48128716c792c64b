import { type APIGuildMember, type Client, Routes } from 'discord.js';
import { DiscordCodes, isDiscordError } from '../../discord-rest.ts';

/** Discord's largest page of `GET /guilds/{guild}/members`. */
const PAGE_SIZE = 1000;

/**
 * Every member of the guild, a page at a time in user id order (`GET /guilds/{guild}/members
 * ?limit=1000&after=<last id>`), from Discord, not the gateway cache (the worker caches no
 * members). Resolves false, having visited nothing, when Discord refuses the list (on Discord
 * that means the bot's application lacks the Server Members intent).
 */
export async function forEachMemberPage(
  client: Client,
  guildId: string,
  visit: (page: readonly APIGuildMember[]) => Promise<void>,
): Promise<boolean> {
  let after = '0';
  for (;;) {
    let page: APIGuildMember[];
    try {
      page = (await client.rest.get(Routes.guildMembers(guildId), {
        query: new URLSearchParams({ limit: String(PAGE_SIZE), after }),
      })) as APIGuildMember[];
    } catch (error) {
      if (after === '0' && isDiscordError(error, DiscordCodes.MissingAccess)) return false;
      throw error;
    }
    if (page.length === 0) return true;
    await visit(page);
    if (page.length < PAGE_SIZE) return true;
    after = page.reduce(
      (last, member) => (BigInt(member.user.id) > BigInt(last) ? member.user.id : last),
      after,
    );
  }
}

export const MEMBER_LIST_REFUSED_WARNING =
  "Discord did not let me read the member list (the bot's application needs the Server Members intent), so I checked members one by one.";
