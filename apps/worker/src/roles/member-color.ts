import { lastColorPickKey, memberPickLockKey, reactionRouteEmoji } from '@spacecadet/contract';
import { type ColorChange, planColorChange } from '@spacecadet/core';
import { loadPalette } from '@spacecadet/db/queries/color-roles';
import { COLOR_PICK_SCOPE, menuPickScope } from '@spacecadet/db/queries/member-picks';
import type { WorkerDeps } from '../deps.ts';
import { DiscordCodes, discordApi, isDiscordError } from '../discord-rest.ts';
import { colorTargetKey } from '../features/color-roles/palette.ts';
import { managedIds } from '../features/repairs/managed-ids.ts';
import { guildMenus } from '../features/role-menus/menus.ts';
import { errorFields } from '../logger.ts';
import { recordMemberPick } from './member-picks.ts';
import { removeMemberReaction } from './member-reactions.ts';
import { noteRoleChange } from './recent-changes.ts';

/**
 * Colour exclusivity (core's `planColorChange`): a member holds at most one role of the palette,
 * whichever way they picked it. Every change of a member's palette roles goes through
 * `changeMemberColor`, whoever asks: a colour panel click, a reaction on the Color Roles list or
 * on any reaction menu, a button or select of any role menu (whatever its mode: a normal menu
 * listing colours swaps the colour too), and a reconcile of reactions.
 *
 * Those all run under one lock per member (`memberColorLockKey`), so concurrent picks through
 * different mechanisms are applied one after the other, each from what the one before left:
 * the colour the last change left (`lastColorPickKey`, read and written here) and, in this
 * process, every role change noted in `recent-changes.ts`.
 */

/**
 * The lock's name in `memberPickLockKey`: the colour panel's, which every role menu shares (any
 * menu may list palette roles), as do the colour jobs that move members to recreated roles.
 */
export const MEMBER_COLOR_LOCK = 'color-roles';

/** The member's one lock for every change of their colour and role-menu roles. */
export function memberColorLockKey(guildId: string, userId: string): string {
  return memberPickLockKey(MEMBER_COLOR_LOCK, guildId, userId);
}

/** Covers events that waited on the lock: their roles predate the change recorded here. */
export const LAST_COLOR_TTL_SECONDS = 5 * 60;
/**
 * What `lastColorPickKey` holds after a change that left the member no colour. Not simply
 * deleted: a pick queued behind it carries roles from before it (the old colour among them) and
 * must not take that colour as already held.
 */
export const NO_COLOR_RECORD = 'none';

/** The palette role the member's last change of colour left them with (core's `KnownMemberRoles.last`). */
export async function lastMemberColor(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
): Promise<string | null | undefined> {
  const stored = await deps.redis.get(lastColorPickKey(guildId, userId));
  return stored === null ? undefined : stored === NO_COLOR_RECORD ? null : stored;
}

/** Records the palette role a change left the member with (null: none). */
export async function recordLastMemberColor(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  roleId: string | null,
): Promise<void> {
  const key = lastColorPickKey(guildId, userId);
  await deps.redis.set(key, roleId ?? NO_COLOR_RECORD, 'EX', LAST_COLOR_TTL_SECONDS);
}

/**
 * Every role of the guild's palette (colours and shades), from the in-memory copy of the bot's
 * managed ids, so a role-menu pick learns whether it touches the palette without a Postgres read.
 */
export async function guildPaletteRoles(deps: WorkerDeps, guildId: string): Promise<Set<string>> {
  const roles = new Set<string>();
  for (const [roleId, feature] of (await managedIds.get(deps, guildId)).roles) {
    if (feature === 'color') roles.add(roleId);
  }
  return roles;
}

/** The palette entry's key of a role (`colorTargetKey`), read from Postgres: for a pick made off the panel. */
export async function paletteTargetKey(
  deps: WorkerDeps,
  guildId: string,
  roleId: string,
): Promise<string | null> {
  return colorTargetKey(await loadPalette(deps.db, guildId), roleId);
}

/**
 * Records the member's colour pick (`member_role_picks`, scope `color`) by its palette entry's
 * key (`colorTargetKey`), or none; written behind the change.
 */
export function recordColorPickKey(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  key: string | null,
): void {
  recordMemberPick(deps, { guildId, userId, scope: COLOR_PICK_SCOPE, targetKeys: key ? [key] : [] });
}

/** One member's colour change, as its caller knows the member. */
export interface MemberColorChange {
  guildId: string;
  userId: string;
  /** Every role of the guild's palette, colours and shades. */
  paletteRoles: ReadonlySet<string>;
  /** The member's roles as the caller knows them (an event's roles, changes laid over); kept up to date. */
  held: Set<string>;
  /** Discord's audit-log reason. */
  reason: string;
  /**
   * The role menu the change was picked on: its own reactions and picks of the roles taken away
   * are the caller's to update (it knows the member's reaction there). Every other menu's are
   * updated here.
   */
  fromMenuId?: string | undefined;
}

/** A pick, with its palette entry's key for `member_role_picks` (null: none known), or a drop. */
export type MemberColorRequest =
  | { pick: string; pickKey: string | null }
  | Extract<ColorChange, { drop: unknown }>;

export type ColorChangeOutcome =
  /** `removed`: the palette roles taken away; `kept`: those Discord refused to take (above the bot). */
  | { result: 'done'; removed: string[]; kept: string[] }
  /** Discord refused to give the pick (above the bot; deleted): nothing changed. */
  | { result: 'missing-permissions'; roleId: string }
  | { result: 'unknown-role'; roleId: string };

/**
 * The one place a member's palette roles change. A pick gives the role and takes away every
 * other palette role the member holds (the event's roles, the changes laid over them and the
 * last recorded colour); a drop takes away the named palette roles (or all). Then, so every
 * record agrees with the member's roles: the last colour (`lastColorPickKey`), the colour pick
 * (`member_role_picks`, scope `color`, whichever mechanism it came through), and for each role
 * taken away, every role menu's pick of it is forgotten and the member's reaction for it on any
 * reaction menu is taken away, as the Color Roles list does for its own swaps.
 *
 * Must run under the member's lock (`memberColorLockKey`). A role Discord refuses to give ends
 * the change with nothing done; one it refuses to take away is reported as `kept`. Any other
 * error from Discord is thrown, with the changes that landed before it noted.
 */
export async function changeMemberColor(
  deps: WorkerDeps,
  member: MemberColorChange,
  request: MemberColorRequest,
): Promise<ColorChangeOutcome> {
  const { guildId, userId, held, reason } = member;
  const roles = discordApi(deps.client).guilds;
  const last = await lastMemberColor(deps, guildId, userId);
  const plan = planColorChange(member.paletteRoles, { roles: held, last }, request);
  if (plan.give) {
    try {
      await roles.addRoleToMember(guildId, userId, plan.give, { reason });
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.MissingPermissions))
        return { result: 'missing-permissions', roleId: plan.give };
      if (isDiscordError(error, DiscordCodes.UnknownRole))
        return { result: 'unknown-role', roleId: plan.give };
      throw error;
    }
    held.add(plan.give);
    noteRoleChange(guildId, userId, plan.give, true);
  }
  const removed: string[] = [];
  const kept: string[] = [];
  for (const roleId of plan.remove) {
    try {
      await roles.removeRoleFromMember(guildId, userId, roleId, { reason });
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.MissingPermissions)) {
        kept.push(roleId);
        continue;
      }
      // A role deleted from the server is held by nobody.
      if (!isDiscordError(error, DiscordCodes.UnknownRole)) throw error;
    }
    held.delete(roleId);
    noteRoleChange(guildId, userId, roleId, false);
    removed.push(roleId);
  }
  const left = [...plan.left, ...kept];
  await recordLastMemberColor(deps, guildId, userId, left[0] ?? null);
  if ('pick' in request) recordColorPickKey(deps, guildId, userId, request.pickKey);
  else if (left.length === 0) recordColorPickKey(deps, guildId, userId, null);
  await forgetRemovedOnMenus(deps, member, removed);
  return { result: 'done', removed, kept };
}

/**
 * The roles taken from the member are no longer theirs by any menu's pick: each menu's record
 * of them goes, and on a reaction menu their reaction for it too (it would promise the role).
 * A reaction the bot cannot take away (its permissions in that channel) is logged: the roles
 * changed already, and the next reconcile of that menu sees the reaction again.
 */
async function forgetRemovedOnMenus(
  deps: WorkerDeps,
  member: MemberColorChange,
  removed: readonly string[],
): Promise<void> {
  if (removed.length === 0) return;
  const { guildId, userId } = member;
  const menus = await guildMenus.get(deps, guildId);
  for (const menu of menus.byId.values()) {
    if (menu.id === member.fromMenuId) continue;
    const onMenu = removed.filter((roleId) => menu.options.some((option) => option.role_id === roleId));
    for (const roleId of onMenu) {
      recordMemberPick(deps, { guildId, userId, scope: menuPickScope(menu.id, roleId), targetKeys: [] });
    }
    const channelId = menu.messageChannelId;
    for (const row of menus.rows.get(menu.id)?.values() ?? []) {
      const messageId = menu.messageIds[row.page];
      if (!channelId || !messageId || !onMenu.includes(row.roleId)) continue;
      try {
        await removeMemberReaction(deps, channelId, messageId, reactionRouteEmoji(row.emoji), userId);
      } catch (error) {
        deps.logger.warn(
          { ...errorFields(error), guildId, menuId: menu.id, roleId: row.roleId },
          'reaction of a swapped-out colour not taken away',
        );
      }
    }
  }
}
