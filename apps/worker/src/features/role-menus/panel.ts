import type { RoleMenuMessage } from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import { saveMenuMessages } from '@spacecadet/db/queries/role-menus';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { APIMessage } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError, postMessageOnce } from '../../discord-rest.ts';
import {
  channelPermissionFailure,
  channelScope,
  deleteGuildMessage,
  FOREIGN_CHANNEL_MESSAGE,
} from '../../guild-scope.ts';
import type { JobContext } from '../../jobs/types.ts';
import type { GuildRolesView } from '../../roles/guild-roles.ts';
import { menuPages } from './menus.ts';
import { menuName } from './names.ts';
import { body, deleteLeftovers, type PanelPlace, panelSlots, sameContent } from './panel-messages.ts';
import { forgetAllPicks, forgetUnreactedPicks, matchReactions } from './panel-reactions.ts';
import { assignableOptions } from './roles.ts';

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

/** A menu that was not posted this time; the warnings say why. */
const skipped = (warnings: string[]): MenuSync => ({ kind: 'skipped', warnings, kept: 0, changes: 0 });

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
  const checked = assignableOptions(menu, context.payload.guild_id, roles);
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
    await removePanel(context, menu);
    return result('removed', 0, recorded.length);
  }
  if (!options.postNew && recorded.length === 0) return result('none');
  const channelId = await panelChannel(context, menu, options.postNew, warnings);
  if (typeof channelId !== 'string') return channelId;
  const moving = options.postNew && recorded.length > 0 && menu.messageChannelId !== channelId;
  try {
    const written = await writePanel(
      context,
      menu,
      pages,
      { channelId, moving, others: options.others },
      warnings,
    );
    return result(written.kind, written.kept, written.changes);
  } catch (error) {
    return syncFailure(context, menu, { channelId, postNew: options.postNew }, warnings, error);
  }
}

/** A menu with no rows left: its messages are deleted and it is recorded as not posted. */
async function removePanel(context: JobContext, menu: RoleMenuRow): Promise<void> {
  const { client, db } = context.deps;
  const guildId = context.payload.guild_id;
  for (const id of menu.messageIds) {
    await deleteGuildMessage(client, guildId, menu.messageChannelId ?? menu.channelId ?? '', id);
  }
  await saveMenuMessages(db, menu.id, { messageIds: [], channelId: null });
  // Posted again later, its reactions start afresh: no pick may read as "unreacted".
  await forgetAllPicks(context, menu);
}

/**
 * The channel the panel goes in, or the sync's outcome when it cannot go anywhere (no channel
 * picked, the channel gone or not the guild's). Only Post / Update moves a panel to a newly
 * saved channel; a repair keeps it where it is.
 */
async function panelChannel(
  context: JobContext,
  menu: RoleMenuRow,
  postNew: boolean,
  warnings: string[],
): Promise<string | MenuSync> {
  const name = menuName(menu);
  const channelId = postNew ? menu.channelId : (menu.messageChannelId ?? menu.channelId);
  if (!channelId) {
    warnings.push(`${name}: pick a channel for its panel first. Not posted.`);
    return skipped(warnings);
  }
  const scope = await channelScope(context.deps.client, context.payload.guild_id, channelId);
  if (scope === 'missing' && channelId === menu.messageChannelId)
    return panelChannelGone(context, menu, warnings);
  if (scope !== 'own') {
    warnings.push(
      `${name}: ${scope === 'foreign' ? FOREIGN_CHANNEL_MESSAGE : 'its channel no longer exists. Pick another channel.'} Not posted.`,
    );
    return skipped(warnings);
  }
  return channelId;
}

/**
 * Writes the panel in its channel: the pages (`writePages`), then the messages past the last
 * page and, after a move, every message in the old channel deleted; the ids stored and the
 * picks no reaction backs any more forgotten.
 */
async function writePanel(
  context: JobContext,
  menu: RoleMenuRow,
  pages: readonly RoleMenuMessage[],
  place: PanelPlace,
  warnings: string[],
): Promise<{ kind: MenuSync['kind']; kept: number; changes: number }> {
  const { client, db } = context.deps;
  const { channelId, moving } = place;
  const recorded = menu.messageIds;
  const slots = await panelSlots(client, menu, pages.length, place);
  const written = await writePages(context, menu, pages, slots, place, warnings);
  // Messages past the last page, and after a move every message in the old channel.
  const leftovers = [
    ...slots.slice(pages.length).flatMap((slot) => (slot ? [{ channelId, messageId: slot.id }] : [])),
    ...(moving
      ? recorded.map((id) => ({ channelId: menu.messageChannelId ?? channelId, messageId: id }))
      : []),
  ];
  const deleted = await deleteLeftovers(
    client,
    context.payload.guild_id,
    leftovers,
    menuName(menu),
    warnings,
  );
  if (moving || leftovers.length > 0 || written.ids.join() !== recorded.join()) {
    await saveMenuMessages(db, menu.id, { messageIds: written.ids, channelId });
  }
  await forgetUnreactedPicks(context, menu, {
    all: moving,
    fresh: written.fresh,
    removedReactions: written.removedReactions,
  });
  const kind = moving ? 'moved' : written.kept === 0 && recorded.length === 0 ? 'posted' : 'updated';
  return { kind, kept: moving ? 0 : written.kept, changes: written.changes + deleted };
}

/**
 * Each page as its slot's message: edited in place when it differs, posted when there is none,
 * its id stored as it goes, and its reactions matched to the page's rows.
 */
async function writePages(
  context: JobContext,
  menu: RoleMenuRow,
  pages: readonly RoleMenuMessage[],
  slots: ReadonlyArray<APIMessage | null>,
  { channelId, moving }: PanelPlace,
  warnings: string[],
): Promise<{ ids: string[]; fresh: string[]; removedReactions: number; kept: number; changes: number }> {
  const { client, db } = context.deps;
  const recorded = menu.messageIds;
  const name = menuName(menu);
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
  return { ids, fresh, removedReactions, kept, changes };
}

/**
 * A sync Discord refused: the panel's channel gone (recorded as not posted when the panel was
 * there), or the bot's permissions in it missing: Post / Update fails with it; a repair carries
 * on with the other menus and warns. Anything else is thrown on.
 */
async function syncFailure(
  context: JobContext,
  menu: RoleMenuRow,
  { channelId, postNew }: { channelId: string; postNew: boolean },
  warnings: string[],
  error: unknown,
): Promise<MenuSync> {
  const name = menuName(menu);
  if (isDiscordError(error, DiscordCodes.UnknownChannel)) {
    if (channelId === menu.messageChannelId) return panelChannelGone(context, menu, warnings);
    warnings.push(`${name}: its channel no longer exists. Pick another channel.`);
    return skipped(warnings);
  }
  if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) {
    const failure = await channelPermissionFailure(
      context.deps.client,
      context.payload.guild_id,
      channelId,
      'reaction_panel',
      `I cannot post the ${name} panel in its channel. Check my permissions there.`,
    );
    if (postNew) throw failure;
    warnings.push(failure.detail);
    return skipped(warnings);
  }
  throw error;
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
  return skipped(warnings);
}
