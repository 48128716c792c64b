import { menuEmojiKey } from '@spacecadet/contract';
import { planMenuPick } from '@spacecadet/core';
import { menuPickScope, picksWithScopePrefix } from '@spacecadet/db/queries/member-picks';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { APIMessage } from 'discord.js';
import { DiscordCodes, discordApi, fetchMember, isDiscordError } from '../../discord-rest.ts';
import type { JobContext } from '../../jobs/types.ts';
import type { GuildRolesView } from '../../roles/guild-roles.ts';
import { flushMemberPicks } from '../../roles/member-picks.ts';
import { applyRoleChange, forMember, recordMenuPicks, removeMemberReaction } from './member-roles.ts';
import { menuRowsByEmoji, menuRules } from './menus.ts';
import { reactionEmojiOf } from './panel.ts';
import { assignableOptions } from './roles.ts';

/** Discord's page size for a reaction's users. */
const USERS_PAGE = 100;

/** Where a member reacted: the message and the emoji as the routes take it. */
interface Reacted {
  roleId: string;
  messageId: string;
  emoji: string;
}

/**
 * Members' roles matched to their reactions on one posted menu: who reacts gets the row's role
 * (core's `planMenuPick`, as a live reaction would: a refused pick loses its reaction), and a
 * menu role is removed only from a member whose pick of it was recorded and who no longer
 * reacts (a role given any other way stays). In a unique menu a member reacting to several
 * emojis keeps one: the one whose role they hold, else the first in list order; the bot takes
 * their other reactions away.
 */
export async function reconcileMenuMembers(
  context: JobContext,
  menu: RoleMenuRow,
  roles: GuildRolesView,
): Promise<{ granted: number; removed: number }> {
  const { deps } = context;
  const { client } = deps;
  const guildId = menu.guildId;
  const channelId = menu.messageChannelId;
  if (!channelId) return { granted: 0, removed: 0 };
  const assignable = new Set(assignableOptions(menu, guildId, roles).options.map((o) => o.role_id));
  const rows = menuRowsByEmoji(menu);
  const order = [...rows.values()].map((row) => row.roleId);
  const botId = client.user?.id;

  const reactedBy = new Map<string, Reacted[]>();
  for (const messageId of menu.messageIds) {
    let message: APIMessage;
    try {
      message = await discordApi(client).channels.getMessage(channelId, messageId);
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.UnknownMessage, DiscordCodes.UnknownChannel)) continue;
      throw error;
    }
    for (const reaction of message.reactions ?? []) {
      const row = rows.get(menuEmojiKey(reaction.emoji));
      if (!row || !assignable.has(row.roleId)) continue;
      const emoji = reactionEmojiOf(reaction);
      for (const userId of await reactionUsers(context, channelId, messageId, emoji)) {
        if (userId === botId) continue;
        reactedBy.set(userId, [...(reactedBy.get(userId) ?? []), { roleId: row.roleId, messageId, emoji }]);
      }
    }
  }
  await flushMemberPicks(deps);
  const recordedBy = new Map<string, Set<string>>();
  for (const pick of await picksWithScopePrefix(deps.db, guildId, menuPickScope(menu.id))) {
    recordedBy.set(pick.userId, (recordedBy.get(pick.userId) ?? new Set()).add(pick.targetKey));
  }

  const rules = menuRules(menu);
  let granted = 0;
  let removed = 0;
  for (const userId of new Set([...reactedBy.keys(), ...recordedBy.keys()])) {
    await forMember(deps, guildId, userId, async () => {
      let memberRoles: readonly string[];
      try {
        memberRoles = (await fetchMember(client, guildId, userId)).roles;
      } catch (error) {
        if (isDiscordError(error, DiscordCodes.UnknownMember)) return;
        throw error;
      }
      const held = new Set(memberRoles);
      let reacted = (reactedBy.get(userId) ?? []).sort(
        (a, b) => order.indexOf(a.roleId) - order.indexOf(b.roleId),
      );
      if (menu.mode === 'unique' && reacted.length > 1) {
        const keep = reacted.find((r) => held.has(r.roleId)) ?? reacted[0];
        for (const other of reacted) {
          if (other !== keep)
            await removeMemberReaction(deps, channelId, other.messageId, other.emoji, userId);
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
        granted += plan.add.filter((roleId) => held.has(roleId)).length;
        removed += plan.remove.filter((roleId) => !held.has(roleId)).length;
      }
      const reactedRoles = new Set(reacted.map((r) => r.roleId));
      for (const roleId of recordedBy.get(userId) ?? []) {
        touched.add(roleId);
        if (reactedRoles.has(roleId) || !held.has(roleId) || !assignable.has(roleId)) continue;
        const plan = planMenuPick(rules, held, roleId, 'remove');
        if (plan.kind === 'refused') continue;
        await applyRoleChange(deps, guildId, userId, plan, held);
        removed += plan.remove.filter((id) => !held.has(id)).length;
      }
      recordMenuPicks(deps, menu, userId, touched, held);
    });
  }
  return { granted, removed };
}

/** Every user of one reaction, page by page (`after` the last id, 100 a page). */
async function reactionUsers(
  context: JobContext,
  channelId: string,
  messageId: string,
  emoji: string,
): Promise<string[]> {
  const users: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await discordApi(context.deps.client).channels.getMessageReactions(
      channelId,
      messageId,
      emoji,
      {
        limit: USERS_PAGE,
        ...(after ? { after } : {}),
      },
    );
    users.push(...page.map((user) => user.id));
    if (page.length < USERS_PAGE) return users;
    after = page.at(-1)?.id;
  }
}
