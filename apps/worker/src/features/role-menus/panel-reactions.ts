import { menuEmojiKey, reactionRouteEmoji } from '@spacecadet/contract';
import type { ReactionPanelRow } from '@spacecadet/core';
import {
  forgetFeaturePicks,
  forgetScopes,
  menuPickScope,
  picksWithScopePrefix,
} from '@spacecadet/db/queries/member-picks';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { APIMessage, APIReaction, Client } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import type { JobContext } from '../../jobs/types.ts';
import { flushMemberPicks } from '../../roles/member-picks.ts';

/**
 * A posted panel's reactions: the bot's own reaction for each row put in place, and the member
 * picks no reaction backs any more forgotten.
 */

/** The emoji of a reaction as the reaction routes take it. */
export function reactionEmojiOf(reaction: Pick<APIReaction, 'emoji'>): string {
  const { id, name } = reaction.emoji;
  return id ? `${name ?? '_'}:${id}` : (name ?? '');
}

/**
 * The bot reacts with each row's emoji, in order, where it has not yet; the reactions of
 * emojis that are no row of the page any more are removed (everyone's: that row is gone).
 */
export async function matchReactions(
  client: Client,
  channelId: string,
  message: APIMessage,
  rows: readonly ReactionPanelRow[],
  name: string,
  warnings: string[],
): Promise<{ added: string[]; removed: number }> {
  const api = discordApi(client).channels;
  const reactions = message.reactions ?? [];
  const mine = new Set(reactions.filter((reaction) => reaction.me).map((r) => menuEmojiKey(r.emoji)));
  const wanted = new Set(rows.map((row) => menuEmojiKey(row.emoji)));
  const added: string[] = [];
  let removed = 0;
  for (const reaction of reactions) {
    if (!reaction.me || wanted.has(menuEmojiKey(reaction.emoji))) continue;
    await api.deleteAllMessageReactionsForEmoji(channelId, message.id, reactionEmojiOf(reaction));
    removed += 1;
  }
  for (const row of rows) {
    if (mine.has(menuEmojiKey(row.emoji))) continue;
    try {
      await api.addMessageReaction(channelId, message.id, reactionRouteEmoji(row.emoji));
      added.push(row.roleId);
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.UnknownEmoji)) {
        warnings.push(
          `${name}: the emoji of <@&${row.roleId}> is not one of this server's any more. Pick another.`,
        );
      } else if (isDiscordError(error, DiscordCodes.MaximumNumberOfReactionsReached)) {
        warnings.push(`${name}: Discord allows 20 reactions on a message; members' own reactions fill it.`);
      } else throw error;
    }
  }
  return { added, removed };
}

/** Every pick of the menu forgotten: its reactions are gone, so none may read as "unreacted". */
export async function forgetAllPicks(context: JobContext, menu: RoleMenuRow): Promise<void> {
  // Written first, so a pick recorded just before is not written back after the forget.
  await flushMemberPicks(context.deps);
  await forgetFeaturePicks(context.deps.db, menu.guildId, menuPickScope(menu.id));
}

/**
 * Forgets the picks that no member reaction backs any more, so a reconcile never reads them as
 * "unreacted" and takes roles away (members keep their roles): every pick of a moved menu, the
 * picks of rows whose reaction the bot just added (a re-posted message, a row that changed
 * message), and, once reactions of removed rows were cleared, the picks of roles no longer in
 * the menu.
 */
export async function forgetUnreactedPicks(
  context: JobContext,
  menu: RoleMenuRow,
  what: { all: boolean; fresh: readonly string[]; removedReactions: number },
): Promise<void> {
  const { db } = context.deps;
  const guildId = menu.guildId;
  if (!what.all && what.fresh.length === 0 && what.removedReactions === 0) return;
  if (what.all) return forgetAllPicks(context, menu);
  // Written first, so a pick recorded just before is not written back after the forget.
  await flushMemberPicks(context.deps);
  const scopes = new Set(what.fresh.map((roleId) => menuPickScope(menu.id, roleId)));
  if (what.removedReactions > 0) {
    const kept = new Set(menu.options.map((option) => menuPickScope(menu.id, option.role_id)));
    for (const pick of await picksWithScopePrefix(db, guildId, menuPickScope(menu.id))) {
      if (!kept.has(pick.scope)) scopes.add(pick.scope);
    }
  }
  await forgetScopes(db, guildId, [...scopes]);
}
