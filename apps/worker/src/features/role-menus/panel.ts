import { menuEmojiKey, reactionRouteEmoji } from '@spacecadet/contract';
import type { ReactionPanelRow, RoleMenuMessage } from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import {
  forgetFeaturePicks,
  forgetScopes,
  menuPickScope,
  picksWithScopePrefix,
} from '@spacecadet/db/queries/member-picks';
import { saveMenuMessages } from '@spacecadet/db/queries/role-menus';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { APIMessage, APIReaction, Client } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError, postMessageOnce } from '../../discord-rest.ts';
import {
  channelPermissionFailure,
  channelScope,
  deleteGuildMessage,
  FOREIGN_CHANNEL_MESSAGE,
} from '../../guild-scope.ts';
import type { JobContext } from '../../jobs/types.ts';
import type { GuildRolesView } from '../../roles/guild-roles.ts';
import { flushMemberPicks } from '../../roles/member-picks.ts';
import { menuPages } from './menus.ts';
import { menuName } from './names.ts';
import { assignableOptions } from './roles.ts';

/** How far back to look for panel messages a killed run posted but never recorded. */
const RECENT_MESSAGES = 50;

/** What syncing one menu's panel came to. */
export interface MenuSync {
  /** posted: all new; updated: edited in place (some re-posted); moved; removed: no rows left. */
  kind: 'posted' | 'updated' | 'moved' | 'removed' | 'skipped' | 'none';
  warnings: string[];
  /** Messages that existed before (their member reactions are to be reconciled). */
  kept: number;
  /** Discord writes made (posts, edits, reactions, deletes): 0 means everything was in place. */
  changes: number;
}

export interface SyncOptions {
  /** Post / Update: a menu never posted is posted. A repair only puts back what was posted. */
  postNew: boolean;
  /** Message ids recorded by the guild's other menus (never taken as this menu's). */
  others: ReadonlySet<string>;
}

/**
 * Brings one reaction menu's panel in line with its stored rows: every page of core's layout
 * (20 reactions a message) is its recorded message edited in place, or posted again when it was
 * deleted; the bot's reaction for each row is added when missing and the reactions of rows
 * that are gone are removed; messages past the last page are deleted. When the admin picked
 * another channel the panel moves (posted there first, then the old messages deleted). Ids are
 * stored as they are posted, and messages a killed run posted but never stored are found among
 * the channel's recent messages by their title, so a rerun leaves one panel. Member reactions
 * on a re-posted (or moved) message are gone, so the picks of its rows are forgotten: members
 * keep their roles.
 */
export async function syncMenuPanel(
  context: JobContext,
  menu: RoleMenuRow,
  roles: GuildRolesView,
  options: SyncOptions,
): Promise<MenuSync> {
  const { client, db } = context.deps;
  const guildId = context.payload.guild_id;
  const name = menuName(menu);
  const checked = assignableOptions(menu, guildId, roles);
  const warnings = [...checked.warnings];
  const result = (kind: MenuSync['kind'], kept = 0, changes = 0): MenuSync => ({
    kind,
    warnings,
    kept,
    changes,
  });
  const recorded = menu.messageIds;
  // The layout is the stored rows', always: a row the bot cannot give for now keeps its place
  // and its reactions (a warning says why; the live handler refuses its picks).
  const pages = menuPages(menu);
  if (pages.length === 0) {
    if (recorded.length === 0) return result('none');
    for (const id of recorded) {
      await deleteGuildMessage(client, guildId, menu.messageChannelId ?? menu.channelId ?? '', id);
    }
    await saveMenuMessages(db, menu.id, { messageIds: [], channelId: null });
    // Posted again later, its reactions start afresh: no pick may read as "unreacted".
    await forgetAllPicks(context, menu);
    return result('removed', 0, recorded.length);
  }
  if (!options.postNew && recorded.length === 0) return result('none');
  // Only Post / Update moves a panel to a newly saved channel; a repair keeps it where it is.
  const channelId = options.postNew ? menu.channelId : (menu.messageChannelId ?? menu.channelId);
  if (!channelId) {
    warnings.push(`${name}: pick a channel for its panel first. Not posted.`);
    return result('skipped');
  }
  const scope = await channelScope(client, guildId, channelId);
  if (scope === 'missing' && channelId === menu.messageChannelId)
    return panelChannelGone(context, menu, warnings);
  if (scope !== 'own') {
    warnings.push(
      `${name}: ${scope === 'foreign' ? FOREIGN_CHANNEL_MESSAGE : 'its channel no longer exists. Pick another channel.'} Not posted.`,
    );
    return result('skipped');
  }

  const moving = options.postNew && recorded.length > 0 && menu.messageChannelId !== channelId;
  try {
    // Each page's message as Discord has it now (null: deleted, or not posted yet).
    const slots: Array<APIMessage | null> = [];
    for (const id of moving ? [] : recorded) slots.push(await currentMessage(client, channelId, id));
    while (slots.length < pages.length) slots.push(null);
    // A page missing may have been posted by a run killed before it stored the id: the bot's
    // recent messages titled as this panel, recorded by no menu, take the missing places (and
    // any more are leftovers), so a rerun leaves one panel.
    if (slots.slice(0, pages.length).some((slot) => slot === null)) {
      const exclude = new Set([...recorded, ...options.others]);
      const found = await findUnrecordedPages(client, channelId, menuName(menu), exclude);
      for (const [index, slot] of slots.entries()) {
        if (slot === null && index < pages.length) slots[index] = found.shift() ?? null;
      }
      slots.push(...found);
    }
    const ids: string[] = [];
    /** Roles whose reaction the bot added now: no member reacts there yet. */
    const fresh: string[] = [];
    let removedReactions = 0;
    let kept = 0;
    let changes = 0;
    for (const [index, page] of pages.entries()) {
      await context.progress(10 + Math.round((80 * index) / pages.length));
      const slot = slots[index] ?? null;
      let message = slot;
      if (message) {
        kept += recorded.includes(message.id) ? 1 : 0;
        if (!sameContent(message, page)) {
          message = await discordApi(client).channels.editMessage(channelId, message.id, body(page));
          changes += 1;
        }
      } else {
        // One post per page and the message it replaces (none yet, deleted, or in the old
        // channel): a rerun while this post still waits behind a rate limit gets this page back.
        const nonce = messageNonce('menu-page', menu.id, channelId, index, recorded[index] ?? null);
        message = await postMessageOnce(client, channelId, body(page), nonce);
        changes += 1;
      }
      ids.push(message.id);
      // Stored as it goes (a move stores once the old messages are gone: they stay recorded
      // until then, so a killed move deletes them on the rerun).
      if (!moving && recorded[index] !== message.id) {
        await saveMenuMessages(db, menu.id, {
          messageIds: [...ids, ...recorded.slice(index + 1)],
          channelId,
        });
      }
      const matched = await matchReactions(client, channelId, message, page.rows, name, warnings);
      changes += matched.added.length + matched.removed;
      fresh.push(...matched.added);
      removedReactions += matched.removed;
    }
    // Messages past the last page, and after a move every message in the old channel.
    const leftovers = [
      ...slots.slice(pages.length).flatMap((slot) => (slot ? [{ channelId, messageId: slot.id }] : [])),
      ...(moving
        ? recorded.map((id) => ({ channelId: menu.messageChannelId ?? channelId, messageId: id }))
        : []),
    ];
    for (const leftover of leftovers) {
      try {
        await deleteGuildMessage(client, guildId, leftover.channelId, leftover.messageId);
        changes += 1;
      } catch (error) {
        if (!isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) throw error;
        warnings.push(
          `${name}: I could not delete an old panel message in <#${leftover.channelId}>. Delete it by hand.`,
        );
      }
    }
    if (moving || leftovers.length > 0 || ids.join() !== recorded.join()) {
      await saveMenuMessages(db, menu.id, { messageIds: ids, channelId });
    }
    await forgetUnreactedPicks(context, menu, { all: moving, fresh, removedReactions });
    const kind = moving ? 'moved' : kept === 0 && recorded.length === 0 ? 'posted' : 'updated';
    return result(kind, moving ? 0 : kept, changes);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) {
      if (channelId === menu.messageChannelId) return panelChannelGone(context, menu, warnings);
      warnings.push(`${name}: its channel no longer exists. Pick another channel.`);
      return result('skipped');
    }
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) {
      const failure = await channelPermissionFailure(
        client,
        guildId,
        channelId,
        'reaction_panel',
        `I cannot post the ${name} panel in its channel. Check my permissions there.`,
      );
      // Post / Update fails with it; a repair carries on with the other menus and warns.
      if (options.postNew) throw failure;
      warnings.push(failure.detail);
      return result('skipped');
    }
    throw error;
  }
}

/** Every pick of the menu forgotten: its reactions are gone, so none may read as "unreacted". */
export async function forgetAllPicks(context: JobContext, menu: RoleMenuRow): Promise<void> {
  // Written first, so a pick recorded just before is not written back after the forget.
  await flushMemberPicks(context.deps);
  await forgetFeaturePicks(context.deps.db, menu.guildId, menuPickScope(menu.id));
}

/**
 * The channel the panel was posted in was deleted, and its messages with it: the menu is
 * recorded as not posted (a reconcile must not read the lost reactions as "unreacted"; members
 * keep their roles), and the admin is told to post it again.
 */
async function panelChannelGone(
  context: JobContext,
  menu: RoleMenuRow,
  warnings: string[],
): Promise<MenuSync> {
  await saveMenuMessages(context.deps.db, menu.id, { messageIds: [], channelId: null });
  await forgetAllPicks(context, menu);
  warnings.push(
    `${menuName(menu)}: the channel of its panel was deleted, and the panel with it. Pick a channel and post it again.`,
  );
  return { kind: 'skipped', warnings, kept: 0, changes: 0 };
}

function body(page: RoleMenuMessage) {
  return { content: page.content, embeds: page.embeds, components: page.components };
}

/** Whether the posted message already shows the page (then it is not edited again). */
function sameContent(message: APIMessage, page: RoleMenuMessage): boolean {
  const [embed] = message.embeds;
  const [want] = page.embeds;
  return (
    message.embeds.length === 1 &&
    embed !== undefined &&
    want !== undefined &&
    message.content === page.content &&
    embed.title === want.title &&
    embed.description === want.description &&
    embed.color === want.color &&
    (embed.footer?.text ?? null) === (want.footer?.text ?? null) &&
    sameComponents(message.components ?? [], page.components)
  );
}

/** Discord's copy of the components against the layout's, field by field the layout sets. */
function sameComponents(posted: readonly unknown[], wanted: RoleMenuMessage['components']): boolean {
  const shape = (row: unknown): unknown => {
    if (typeof row !== 'object' || row === null) return row;
    const { type, components, style, custom_id, label, emoji, placeholder, min_values, max_values, options } =
      row as Record<string, unknown>;
    const emojiOf = (value: unknown) => {
      const e = value as { id?: string | null; name?: string | null } | undefined;
      return e ? { id: e.id ?? null, name: e.name ?? null } : null;
    };
    return {
      type,
      components: Array.isArray(components) ? components.map(shape) : null,
      style: style ?? null,
      custom_id: custom_id ?? null,
      label: label ?? null,
      emoji: emojiOf(emoji),
      placeholder: placeholder ?? null,
      min_values: min_values ?? null,
      max_values: max_values ?? null,
      options: Array.isArray(options)
        ? options.map((option: Record<string, unknown>) => ({
            label: option.label,
            value: option.value,
            description: option.description ?? null,
            emoji: emojiOf(option.emoji),
          }))
        : null,
    };
  };
  return JSON.stringify(posted.map(shape)) === JSON.stringify(wanted.map(shape));
}

/** The message as Discord has it now, or null when it was deleted. */
async function currentMessage(
  client: Client,
  channelId: string,
  messageId: string,
): Promise<APIMessage | null> {
  try {
    return await discordApi(client).channels.getMessage(channelId, messageId);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMessage)) return null;
    throw error;
  }
}

/** The emoji of a reaction as the reaction routes take it. */
export function reactionEmojiOf(reaction: Pick<APIReaction, 'emoji'>): string {
  const { id, name } = reaction.emoji;
  return id ? `${name ?? '_'}:${id}` : (name ?? '');
}

/**
 * The bot reacts with each row's emoji, in order, where it has not yet; the reactions of
 * emojis that are no row of the page any more are removed (everyone's: that row is gone).
 */
async function matchReactions(
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

/**
 * Forgets the picks that no member reaction backs any more, so a reconcile never reads them as
 * "unreacted" and takes roles away (members keep their roles): every pick of a moved menu, the
 * picks of rows whose reaction the bot just added (a re-posted message, a row that changed
 * message), and, once reactions of removed rows were cleared, the picks of roles no longer in
 * the menu.
 */
async function forgetUnreactedPicks(
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

/**
 * A killed run may have posted pages it never stored: the bot's recent messages in the channel
 * titled as this menu's panel, not recorded by any menu, oldest first.
 */
async function findUnrecordedPages(
  client: Client,
  channelId: string,
  title: string,
  exclude: ReadonlySet<string>,
): Promise<APIMessage[]> {
  const botId = client.user?.id;
  if (!botId) return [];
  let messages: APIMessage[];
  try {
    messages = await discordApi(client).channels.getMessages(channelId, { limit: RECENT_MESSAGES });
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) throw error;
    return [];
  }
  return messages
    .filter((message) => {
      const found = message.embeds[0]?.title ?? '';
      return (
        message.author.id === botId &&
        !exclude.has(message.id) &&
        (found === title || found.startsWith(`${title} (`))
      );
    })
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}
