import { menuEmojiKey } from '@spacecadet/contract';
import { type MenuPickRules, planMenuPick } from '@spacecadet/core';
import { menuPickScope, picksWithScopePrefix } from '@spacecadet/db/queries/member-picks';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import { type APIMessage, ReactionType } from 'discord.js';
import { DiscordCodes, discordApi, fetchMember, isDiscordError } from '../../discord-rest.ts';
import type { JobContext } from '../../jobs/types.ts';
import type { GuildRolesView } from '../../roles/guild-roles.ts';
import { flushMemberPicks } from '../../roles/member-picks.ts';
import { removeMemberReaction } from '../../roles/member-reactions.ts';
import { applyRoleChange, forMember, reactedLiveSince, recordMenuPicks } from './member-roles.ts';
import { menuRowsByEmoji, menuRules } from './menus.ts';
import { menuName } from './names.ts';
import { reactionEmojiOf } from './panel-reactions.ts';
import { assignableOptions } from './roles.ts';

/** Discord's page size for a reaction's users. */
const USERS_PAGE = 100;

/** Where a member reacted: the message and the emoji as the routes take it. */
interface Reacted {
  roleId: string;
  messageId: string;
  emoji: string;
}

/** What reconciling one menu came to. */
export interface MenuReconcile {
  granted: number;
  removed: number;
  warnings: string[];
}

/**
 * Members' roles matched to their reactions on one posted menu: who reacts gets the row's role
 * (core's `planMenuPick`, as a live reaction would: a refused pick loses its reaction), and a
 * menu role is removed only from a member whose pick of it was recorded and who no longer
 * reacts (a role given any other way stays). In a unique menu a member reacting to several
 * emojis keeps one: the one whose role they hold, else the first in list order; the bot takes
 * their other reactions away.
 *
 * Nothing is taken away when a message of the menu could not be read (its reactions are
 * unknown, not withdrawn); a member whose reacted roles are the picks recorded for them is not
 * read from Discord (a restart costs no REST read per member); a member with a live reaction
 * on the menu after the reactions were read is left to the live handler.
 */
export async function reconcileMenuMembers(
  context: JobContext,
  menu: RoleMenuRow,
  roles: GuildRolesView,
): Promise<MenuReconcile> {
  const { deps } = context;
  const guildId = menu.guildId;
  const channelId = menu.messageChannelId;
  const outcome: MenuReconcile = { granted: 0, removed: 0, warnings: [] };
  if (!channelId) return outcome;
  const assignable = new Set(assignableOptions(menu, guildId, roles).options.map((o) => o.role_id));
  const snapshotAt = performance.now();
  let read: MenuReactions;
  try {
    read = await readMenuReactions(context, menu, channelId, assignable);
  } catch (error) {
    if (!isDiscordError(error, DiscordCodes.MissingAccess)) throw error;
    outcome.warnings.push(
      `${menuName(menu)}: I cannot see <#${channelId}>, the channel of its panel, so members' reactions there were not read. Give me View Channel and Read Message History there.`,
    );
    return outcome;
  }
  const { reactedBy, complete } = read;
  await flushMemberPicks(deps);
  const recordedBy = new Map<string, Set<string>>();
  for (const pick of await picksWithScopePrefix(deps.db, guildId, menuPickScope(menu.id))) {
    recordedBy.set(pick.userId, (recordedBy.get(pick.userId) ?? new Set()).add(pick.targetKey));
  }

  const order = [...menuRowsByEmoji(menu).values()].map((row) => row.roleId);
  const reading: MenuReading = { channelId, assignable, order, rules: menuRules(menu), complete, snapshotAt };
  for (const userId of new Set([...reactedBy.keys(), ...recordedBy.keys()])) {
    const reactedRoles = new Set((reactedBy.get(userId) ?? []).map((r) => r.roleId));
    const recorded = recordedBy.get(userId) ?? new Set<string>();
    // As recorded: the member's roles follow their reactions already (no REST read).
    if (reactedRoles.size === recorded.size && [...recorded].every((roleId) => reactedRoles.has(roleId))) {
      continue;
    }
    // Only grants when some message could not be read: no reaction there is known.
    if (!complete && reactedRoles.size === 0) continue;
    await forMember(deps, guildId, userId, () =>
      reconcileMember(
        context,
        menu,
        reading,
        { userId, reacted: reactedBy.get(userId) ?? [], recorded },
        outcome,
      ),
    );
  }
  return outcome;
}

/** The reactions read off a menu's messages, by member; complete when every message was read. */
interface MenuReactions {
  reactedBy: Map<string, Reacted[]>;
  /** Every message of the menu was read: a missing reaction means "unreacted". */
  complete: boolean;
}

/**
 * Who reacts with the emoji of each assignable row on the menu's messages (the bot aside). A
 * message gone (or its channel) leaves the reading incomplete; a channel the bot cannot see
 * throws (`MissingAccess`).
 */
async function readMenuReactions(
  context: JobContext,
  menu: RoleMenuRow,
  channelId: string,
  assignable: ReadonlySet<string>,
): Promise<MenuReactions> {
  const { client } = context.deps;
  const rows = menuRowsByEmoji(menu);
  const botId = client.user?.id;
  const reactedBy = new Map<string, Reacted[]>();
  let complete = true;
  for (const messageId of menu.messageIds) {
    let message: APIMessage;
    try {
      message = await discordApi(client).channels.getMessage(channelId, messageId);
    } catch (error) {
      if (!isDiscordError(error, DiscordCodes.UnknownMessage, DiscordCodes.UnknownChannel)) throw error;
      complete = false;
      continue;
    }
    for (const reaction of message.reactions ?? []) {
      const row = rows.get(menuEmojiKey(reaction.emoji));
      if (!row || !assignable.has(row.roleId)) continue;
      const emoji = reactionEmojiOf(reaction);
      for (const userId of await reactionUsers(context, channelId, messageId, emoji)) {
        if (userId === botId) continue;
        const reacted = reactedBy.get(userId) ?? [];
        if (!reacted.some((r) => r.roleId === row.roleId))
          reacted.push({ roleId: row.roleId, messageId, emoji });
        reactedBy.set(userId, reacted);
      }
    }
  }
  return { reactedBy, complete };
}

/** What reconciling a menu's members reads alike for each of them. */
interface MenuReading {
  channelId: string;
  assignable: ReadonlySet<string>;
  /** The menu's roles in list order (a unique menu keeps the first reacted). */
  order: readonly string[];
  rules: MenuPickRules;
  complete: boolean;
  /** When the reactions were read: a member reacting live since is left to the live handler. */
  snapshotAt: number;
}

/**
 * Under the member's lock: their roles matched to their reactions on the menu (a unique menu
 * keeps one reaction), recorded picks no longer reacted to taken away, and what they pick now
 * recorded; the counts are added to `outcome`.
 */
async function reconcileMember(
  context: JobContext,
  menu: RoleMenuRow,
  { channelId, assignable, order, rules, complete, snapshotAt }: MenuReading,
  member: { userId: string; reacted: Reacted[]; recorded: ReadonlySet<string> },
  outcome: MenuReconcile,
): Promise<void> {
  const { deps } = context;
  const guildId = menu.guildId;
  const { userId, recorded } = member;
  if (reactedLiveSince(guildId, userId, menu.messageIds, snapshotAt)) return;
  let memberRoles: readonly string[];
  try {
    memberRoles = (await fetchMember(deps.client, guildId, userId)).roles;
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMember)) return;
    throw error;
  }
  const held = new Set(memberRoles);
  let reacted = member.reacted.sort((a, b) => order.indexOf(a.roleId) - order.indexOf(b.roleId));
  if (menu.mode === 'unique' && reacted.length > 1) {
    const keep = reacted.find((r) => held.has(r.roleId)) ?? reacted[0];
    for (const other of reacted) {
      if (other !== keep) await removeMemberReaction(deps, channelId, other.messageId, other.emoji, userId);
    }
    reacted = keep ? [keep] : [];
  }
  const touched = new Set<string>();
  for (const reaction of reacted) {
    touched.add(reaction.roleId);
    if (held.has(reaction.roleId)) continue;
    const plan = planMenuPick(rules, held, reaction.roleId, 'add');
    if (plan.kind === 'refused') {
      await removeMemberReaction(deps, channelId, reaction.messageId, reaction.emoji, userId);
      continue;
    }
    await applyRoleChange(deps, guildId, userId, plan, held);
    for (const roleId of [...plan.add, ...plan.remove]) touched.add(roleId);
    outcome.granted += plan.add.filter((roleId) => held.has(roleId)).length;
    outcome.removed += plan.remove.filter((roleId) => !held.has(roleId)).length;
  }
  const kept = new Set(reacted.map((r) => r.roleId));
  for (const roleId of complete ? recorded : []) {
    touched.add(roleId);
    if (kept.has(roleId) || !held.has(roleId) || !assignable.has(roleId)) continue;
    const plan = planMenuPick(rules, held, roleId, 'remove');
    if (plan.kind === 'refused') continue;
    await applyRoleChange(deps, guildId, userId, plan, held);
    outcome.removed += plan.remove.filter((id) => !held.has(id)).length;
  }
  recordMenuPicks(deps, menu, userId, touched, held);
}

/** Every user of one reaction, page by page (`after` the last id, 100 a page). */
async function reactionUsers(
  context: JobContext,
  channelId: string,
  messageId: string,
  emoji: string,
): Promise<string[]> {
  const users = new Set<string>();
  // Normal and super (burst) reactions are listed apart; a super reaction picks the row too.
  for (const type of [ReactionType.Normal, ReactionType.Burst]) {
    let after: string | undefined;
    for (;;) {
      const page = await discordApi(context.deps.client).channels.getMessageReactions(
        channelId,
        messageId,
        emoji,
        { limit: USERS_PAGE, type, ...(after ? { after } : {}) },
      );
      for (const user of page) users.add(user.id);
      if (page.length < USERS_PAGE) break;
      after = page.at(-1)?.id;
    }
  }
  return [...users];
}
