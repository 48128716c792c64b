import { menuEmojiKey, reactionRouteEmoji } from '@spacecadet/contract';
import { planMenuPick } from '@spacecadet/core';
import { forgetScopes, menuPickScope } from '@spacecadet/db/queries/member-picks';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import type { GatewayMessageReactionAddDispatch, GatewayMessageReactionRemoveDispatch } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, fetchMember, isDiscordError } from '../../discord-rest.ts';
import { flushMemberPicks } from '../../roles/member-picks.ts';
import { removeMemberReaction } from '../../roles/member-reactions.ts';
import { removedSince, rolesSeenBy } from '../../roles/recent-changes.ts';
import { onGateway } from '../feature.ts';
import {
  applyRoleChange,
  inMemberOrder,
  noteLiveReaction,
  recordMenuPicks,
  underMemberLock,
} from './member-roles.ts';
import { guildMenus, type MenuRow, menuRules } from './menus.ts';

/** After the bot comes back to a guild: its reconcile waits this long, so one runs per guild. */
const RECONCILE_DELAY_MS = 2_000;
/** A cleared reaction's repair, when REPAIR_DELAY_MS is off. */
const CLEARED_REPAIR_DELAY_MS = 1_000;

/** The menu a reaction packet is on, and the row of its emoji; null for anything else. */
async function panelOf(
  deps: WorkerDeps,
  guildId: string | undefined,
  messageId: string,
): Promise<{ menu: RoleMenuRow; rows: ReadonlyMap<string, MenuRow> } | null> {
  if (!guildId) return null;
  const menus = await guildMenus.get(deps, guildId);
  const menu = menus.byMessage.get(messageId);
  const rows = menu ? menus.rows.get(menu.id) : undefined;
  return menu && rows ? { menu, rows } : null;
}

/**
 * A member's reaction on a panel: core's `planMenuPick` decides what it does to their roles
 * (the one rule of every mode), and a palette role changes through `changeMemberColor` (one
 * colour at a time, whichever way it was picked). A refused pick takes the reaction away; a
 * swap (a unique menu's, a colour's) takes away the member's reaction of each role they no
 * longer hold. Applied per member in order, under their lock, from the roles the packet carries
 * with this process's later changes laid over them (`rolesSeenBy`); a remove, which carries
 * none, reads them from Discord.
 */
function applyReaction(
  deps: WorkerDeps,
  packet: GatewayMessageReactionAddDispatch | GatewayMessageReactionRemoveDispatch,
): Promise<void> {
  const arrivedAt = performance.now();
  const { d } = packet;
  const guildId = d.guild_id;
  if (d.user_id === deps.client.user?.id || !guildId) return Promise.resolve();
  noteLiveReaction(guildId, d.user_id, d.message_id, arrivedAt);
  // Queued in arrival order before anything is awaited; the panel is looked up in turn.
  return inMemberOrder(guildId, d.user_id, async () => {
    const panel = await panelOf(deps, guildId, d.message_id);
    const row = panel?.rows.get(menuEmojiKey(d.emoji));
    if (!panel || !row) return;
    await underMemberLock(deps, guildId, d.user_id, () =>
      applyPick(deps, packet, guildId, panel, row, arrivedAt),
    );
  });
}

async function applyPick(
  deps: WorkerDeps,
  packet: GatewayMessageReactionAddDispatch | GatewayMessageReactionRemoveDispatch,
  guildId: string,
  { menu, rows }: { menu: RoleMenuRow; rows: ReadonlyMap<string, MenuRow> },
  row: MenuRow,
  arrivedAt: number,
): Promise<void> {
  const { d } = packet;
  const pick = packet.t === 'MESSAGE_REACTION_ADD' ? 'add' : 'remove';
  // The bot took this reaction away itself (a swapped-out color) after taking the role: done.
  if (pick === 'remove' && removedSince(guildId, d.user_id, row.roleId, arrivedAt)) return;
  // An add carries the member's roles (Discord's MESSAGE_REACTION_ADD has `member`), so no
  // REST read spends the global limit the role changes need; a remove does not carry them.
  let roles: readonly string[];
  if (packet.t === 'MESSAGE_REACTION_ADD' && packet.d.member) roles = packet.d.member.roles;
  else {
    try {
      roles = (await fetchMember(deps.client, guildId, d.user_id)).roles;
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.UnknownMember)) return;
      throw error;
    }
  }
  const held = rolesSeenBy(guildId, d.user_id, roles, arrivedAt);
  const plan = planMenuPick(menuRules(menu), held, row.roleId, pick);
  if (plan.kind === 'refused') {
    if (pick === 'add') {
      await removeMemberReaction(deps, d.channel_id, d.message_id, reactionRouteEmoji(row.emoji), d.user_id);
    }
    return;
  }
  const change = await applyRoleChange(deps, guildId, d.user_id, plan, held, menu.id);
  if (pick === 'add' && !change.ok && !held.has(row.roleId)) {
    // Discord refused the role (above the bot, deleted): the reaction would promise it.
    await removeMemberReaction(deps, d.channel_id, d.message_id, reactionRouteEmoji(row.emoji), d.user_id);
  }
  const removed = change.removed.filter((roleId) => menu.options.some((option) => option.role_id === roleId));
  recordMenuPicks(deps, menu, d.user_id, [row.roleId, ...plan.add, ...plan.remove, ...removed], held);
  if (pick !== 'add') return;
  // A swap (a unique menu's, or a colour's on any menu): the member's reaction of each role
  // taken away goes too.
  for (const other of rows.values()) {
    if (other.roleId === row.roleId || !removed.includes(other.roleId)) continue;
    const messageId = menu.messageIds[other.page];
    const channelId = menu.messageChannelId;
    if (messageId && channelId) {
      await removeMemberReaction(deps, channelId, messageId, reactionRouteEmoji(other.emoji), d.user_id);
    }
  }
}

const onReaction = onGateway('raw', 'apply a reaction on a role menu', async (deps, packet) => {
  if (packet.t === 'MESSAGE_REACTION_ADD' || packet.t === 'MESSAGE_REACTION_REMOVE') {
    await applyReaction(deps, packet);
  }
});

/**
 * A moderator cleared a panel's reactions (all, or one emoji's): the repair puts the bot's
 * back; members keep their roles, and the picks of the cleared rows are forgotten (their
 * reactions are gone, so a reconcile must not read that as "unreacted").
 */
const onReactionsCleared = onGateway('raw', 'repair a cleared reaction panel', async (deps, packet) => {
  if (packet.t !== 'MESSAGE_REACTION_REMOVE_ALL' && packet.t !== 'MESSAGE_REACTION_REMOVE_EMOJI') return;
  const guildId = packet.d.guild_id;
  const panel = await panelOf(deps, guildId, packet.d.message_id);
  if (!panel || !guildId) return;
  const page = panel.menu.messageIds.indexOf(packet.d.message_id);
  const key = packet.t === 'MESSAGE_REACTION_REMOVE_EMOJI' ? menuEmojiKey(packet.d.emoji) : null;
  const cleared = [...panel.rows.entries()]
    .filter(([emoji, row]) => row.page === page && (key === null || emoji === key))
    .map(([, row]) => row.roleId);
  if (cleared.length === 0) return;
  await flushMemberPicks(deps);
  await forgetScopes(
    deps.db,
    guildId,
    cleared.map((roleId) => menuPickScope(panel.menu.id, roleId)),
  );
  await addGuildJob(deps.queue, 'role-menus.repair', guildId, null, {
    repair: true,
    afterChange: true,
    delayMs: deps.config.repairDelayMs ?? CLEARED_REPAIR_DELAY_MS,
  });
});

/**
 * The bot (re)joined a guild's gateway session (a start, a reconnect that did not resume): the
 * reactions made meanwhile are reconciled, one job per guild.
 */
const onGuildBack = onGateway('raw', 'reconcile reaction panels after an absence', async (deps, packet) => {
  if (packet.t !== 'GUILD_CREATE') return;
  const guildId = packet.d.id;
  if (!(await guildMenus.get(deps, guildId)).posted) return;
  await addGuildJob(deps.queue, 'role-menus.reconcile', guildId, null, { delayMs: RECONCILE_DELAY_MS });
});

export const reactionEvents = [onReaction, onReactionsCleared, onGuildBack];
