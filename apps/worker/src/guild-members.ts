import type { APIGuildMember, Client } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError } from './discord-rest.ts';

/** Discord's largest page of `GET /guilds/{guild}/members`. */
export const MEMBERS_PAGE = 1000;

/**
 * Every member of the guild, a page at a time in user id order (`GET /guilds/{guild}/members
 * ?limit=&after=<highest id so far>`), from Discord, not the gateway cache: the worker caches
 * no members, and any process may run any guild's job. Needs the Server Members intent.
 */
export async function* guildMemberPages(
  client: Client,
  guildId: string,
  pageSize: number = MEMBERS_PAGE,
): AsyncGenerator<APIGuildMember[]> {
  let after = '0';
  for (;;) {
    const page = await discordApi(client).guilds.getMembers(guildId, { limit: pageSize, after });
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page.reduce(
      (last, member) => (BigInt(member.user.id) > BigInt(last) ? member.user.id : last),
      after,
    );
  }
}

/** The same, one member at a time. */
export async function* guildMembers(
  client: Client,
  guildId: string,
  pageSize: number = MEMBERS_PAGE,
): AsyncGenerator<APIGuildMember> {
  for await (const page of guildMemberPages(client, guildId, pageSize)) yield* page;
}

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

/**
 * Who holds each of these roles (role id → user ids), from the member list read a page at a
 * time; null when Discord refuses the list (the Server Members intent), for the caller's
 * fallback on the recorded picks.
 */
export async function roleHolders(
  client: Client,
  guildId: string,
  roleIds: ReadonlySet<string>,
): Promise<Map<string, string[]> | null> {
  const holders = new Map<string, string[]>();
  if (roleIds.size === 0) return holders;
  const listed = await forEachMemberPage(client, guildId, async (page) => {
    for (const member of page) {
      for (const roleId of member.roles) {
        if (!roleIds.has(roleId)) continue;
        const list = holders.get(roleId) ?? [];
        list.push(member.user.id);
        holders.set(roleId, list);
      }
    }
  });
  return listed ? holders : null;
}
