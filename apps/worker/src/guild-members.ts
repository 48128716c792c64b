import type { APIGuildMember, Client } from 'discord.js';
import { discordApi } from './discord-rest.ts';

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
