import { type DiscordClient, DiscordError, type DiscordMember } from './discord.ts';
import { discordFailure } from './guild-resource-answers.ts';

/** A member of the guild as an admin tool names them: the server's name for them, and whether a bot. */
export interface ServerMember {
  /** Their nickname on the server, else their display name, else their username (as chat stores it). */
  name: string;
  avatar: string | null;
  bot: boolean;
}

/**
 * Up to this many ids are looked up one by one (`GET …/members/{user}`, no privileged intent
 * needed); more are found in the member list, read once.
 */
const LOOKUPS_MAX = 10;
/**
 * Without the Server Members intent Discord refuses the member list (403): up to this many ids
 * are then still looked up one by one; more would cost one call each, so the caller is told.
 */
export const LOOKUPS_WITHOUT_LIST_MAX = 100;

function serverMember(member: DiscordMember): ServerMember {
  const { user } = member;
  return {
    name: member.nick || user.global_name || user.username,
    avatar: user.avatar,
    bot: user.bot === true,
  };
}

async function lookUpEach(
  discord: DiscordClient,
  guildId: string,
  ids: readonly string[],
): Promise<Map<string, ServerMember>> {
  const found = new Map<string, ServerMember>();
  for (const id of ids) {
    const member = await discord.getGuildMember(guildId, id);
    if (member) found.set(id, serverMember(member));
  }
  return found;
}

/**
 * Which of `userIds` are members of the guild, as the bot sees them now, by user id (an id
 * that is not a member is not in the map). Null when Discord refuses the member list (the bot
 * lacks the Server Members intent) and there are more than LOOKUPS_WITHOUT_LIST_MAX ids.
 * Discord failing otherwise is the ApiError an admin tool answers (409 bot gone, 503, 502).
 */
export async function membersAmong(
  discord: DiscordClient,
  guildId: string,
  userIds: readonly string[],
): Promise<Map<string, ServerMember> | null> {
  const ids = [...new Set(userIds)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  const first = ids[0];
  const last = ids[ids.length - 1];
  if (first === undefined || last === undefined) return new Map();
  try {
    if (ids.length <= LOOKUPS_MAX) return await lookUpEach(discord, guildId, ids);
    const wanted = new Set(ids);
    const found = new Map<string, ServerMember>();
    // The list comes in user id order: it is read from just below the first id to past the last.
    walk: for await (const page of discord.guildMemberPages(guildId, 1000, String(BigInt(first) - 1n))) {
      for (const member of page) {
        if (wanted.has(member.user.id)) found.set(member.user.id, serverMember(member));
        if (BigInt(member.user.id) >= BigInt(last)) break walk;
      }
    }
    return found;
  } catch (error) {
    if (error instanceof DiscordError && error.status === 403 && ids.length > LOOKUPS_MAX) {
      if (ids.length > LOOKUPS_WITHOUT_LIST_MAX) return null;
      try {
        return await lookUpEach(discord, guildId, ids);
      } catch (lookupError) {
        throw discordFailure(lookupError, 'members');
      }
    }
    throw discordFailure(error, 'members');
  }
}
