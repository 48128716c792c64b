import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import { PermissionFlagsBits } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import {
  clickMemberRoleIds,
  DEFAULT_GROUP,
  lastPickWins,
  MEMBER_PICK_LOCK_TTL_MS,
  registerPickFeature,
} from '../../interactions/member-lock.ts';
import type { DeferFirst, EphemeralAnswer } from '../../interactions/respond.ts';
import type { PanelInteraction } from '../../interactions/types.ts';
import { withLockWhenFree } from '../../jobs/guild-lock.ts';
import {
  changeMemberColor,
  lastMemberColor,
  MEMBER_COLOR_LOCK,
  type MemberColorChange,
  memberColorLockKey,
  recordLastMemberColor,
} from '../../roles/member-color.ts';
import { noteRoleChange } from '../../roles/recent-changes.ts';
import { colorTargetKey, paletteRoleIds } from './palette.ts';
import { clearColorWarnings, recordColorWarning, roleAboveBotWarning } from './warnings.ts';

export const ROLE_ABOVE_BOT_MESSAGE =
  "I can't give you that role: my role must be above it in Server Settings → Roles. Ask an admin.";
export const MISSING_MANAGE_ROLES_MESSAGE =
  "I can't give you that role: I need the Manage Roles permission. Ask an admin.";
export const ROLE_MISSING_MESSAGE = "That color's role is missing. Ask an admin to run Generate Roles.";
export const COLOR_REMOVED_MESSAGE = 'Your color was removed.';
export const NO_COLOR_MESSAGE = "You don't have a color role.";
export const REMOVE_ROLE_ABOVE_BOT_MESSAGE =
  "I can't remove your color role: my role must be above it in Server Settings → Roles. Ask an admin.";
export const REMOVE_MISSING_MANAGE_ROLES_MESSAGE =
  "I can't remove your color role: I need the Manage Roles permission. Ask an admin.";
const REASON = 'Space Cadet: color pick';
const REMOVE_REASON = 'Space Cadet: color removed';
/** The hash of the member's waiting colour clicks (`memberPicksKey`). */
const PICKS_FEATURE = 'color-roles';

/**
 * Gives the member `choice`'s role and takes away every other colour role of the palette, so
 * a member holds one colour at a time. A role the bot cannot manage gets the member a clear
 * answer and the admin a dashboard warning instead of a silent failure. Otherwise the click is
 * acknowledged and its pick recorded; the member's last click wins (`lastPickWins`) and every
 * click is answered with the colour the member ends with.
 */
export async function assignColorRole(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  palette: readonly StoredColor[],
  choice: { name: string; roleId: string | null },
  deferFirst: DeferFirst,
): Promise<EphemeralAnswer> {
  const { redis } = deps;
  const guildId = interaction.guildId;
  const roleId = choice.roleId;
  if (!guildId || !roleId) return { content: ROLE_MISSING_MESSAGE };

  const guild = interaction.inCachedGuild() ? interaction.guild : null;
  if (guild) {
    const role = guild.roles.cache.get(roleId);
    const me = guild.members.me;
    if (!role) return { content: ROLE_MISSING_MESSAGE };
    if (me && !me.permissions.has(PermissionFlagsBits.ManageRoles)) {
      return { content: MISSING_MANAGE_ROLES_MESSAGE };
    }
    if (me && role.comparePositionTo(me.roles.highest) >= 0) {
      await recordColorWarning(redis, guildId, roleId, roleAboveBotWarning(role.name));
      return { content: ROLE_ABOVE_BOT_MESSAGE };
    }
  }
  const pick: ColorPick = {
    kind: 'pick',
    roleId,
    name: guild?.roles.cache.get(roleId)?.name ?? choice.name,
    colorName: choice.name,
    targetKey: colorTargetKey(palette, roleId),
    ...pickContext(interaction, guildId, palette),
  };
  return lastPickWins(interaction, deps, COLOR_PICKS, DEFAULT_GROUP, pick, deferFirst);
}

/**
 * The "Remove color" button: takes away every colour role of the palette the member holds, as
 * one more pick, so a remove and a pick clicked together end as the later of the two says. A
 * member without a colour is answered without any role change or member fetch.
 */
export async function removeColorRoles(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  palette: readonly StoredColor[],
  deferFirst: DeferFirst,
): Promise<EphemeralAnswer> {
  const guildId = interaction.guildId;
  if (!guildId) return { content: NO_COLOR_MESSAGE };
  const pick: ColorPick = { kind: 'remove', ...pickContext(interaction, guildId, palette) };
  return lastPickWins(interaction, deps, COLOR_PICKS, DEFAULT_GROUP, pick, deferFirst);
}

/**
 * A colour click as recorded for the member's lock holder, which may run in another process:
 * what it asks for, plus the palette's roles and the member's roles as the click saw them.
 */
type ColorPick = (
  | {
      kind: 'pick';
      roleId: string;
      name: string;
      colorName: string;
      /** The palette entry's stable key, for `member_role_picks`. */
      targetKey: string | null;
    }
  | { kind: 'remove' }
) &
  PickContext;

interface PickContext {
  guildId: string;
  userId: string;
  colorRoles: string[];
  payloadRoles: string[];
}

function pickContext(
  interaction: PanelInteraction,
  guildId: string,
  palette: readonly StoredColor[],
): PickContext {
  return {
    guildId,
    userId: interaction.user.id,
    colorRoles: [...paletteRoleIds(palette)],
    payloadRoles: [...clickMemberRoleIds(interaction)],
  };
}

/**
 * Colour picks, under the member's one lock for every change of their colour
 * (`memberColorLockKey`, role menus' picks included): of the member's waiting clicks only the
 * newest is applied, through `changeMemberColor`, and its answer is every click's.
 */
const COLOR_PICKS = registerPickFeature<ColorPick>({
  feature: PICKS_FEATURE,
  lock: MEMBER_COLOR_LOCK,
  async apply(deps, picks, doneId) {
    const newest = picks.at(-1);
    // Every waiting pick is older than one already applied (it reached Redis late): that one won.
    if (!newest || (doneId !== null && BigInt(newest.id) <= BigInt(doneId))) return null;
    return newest.pick.kind === 'pick' ? applyColorPick(deps, newest.pick) : applyRemove(deps, newest.pick);
  },
});

/** The colour panel's part of a change (core's `planColorChange`), under the member's lock. */
function panelColorChange(pick: ColorPick, reason: string): MemberColorChange {
  return {
    guildId: pick.guildId,
    userId: pick.userId,
    paletteRoles: new Set(pick.colorRoles),
    held: new Set(pick.payloadRoles),
    reason,
  };
}

async function applyColorPick(
  deps: WorkerDeps,
  pick: Extract<ColorPick, { kind: 'pick' }>,
): Promise<EphemeralAnswer> {
  const { guildId, roleId } = pick;
  const outcome = await changeMemberColor(deps, panelColorChange(pick, REASON), {
    pick: roleId,
    pickKey: pick.targetKey,
  });
  if (outcome.result === 'missing-permissions') {
    await recordColorWarning(deps.redis, guildId, roleId, roleAboveBotWarning(pick.name));
    return { content: ROLE_ABOVE_BOT_MESSAGE };
  }
  if (outcome.result === 'unknown-role') return { content: ROLE_MISSING_MESSAGE };
  const [kept] = outcome.kept;
  if (kept) return keptColorAnswer(deps, guildId, kept);
  await clearColorWarnings(deps.redis, guildId, [roleId]);
  return { content: `You now have the **${pick.colorName}** color.` };
}

async function applyRemove(
  deps: WorkerDeps,
  pick: Extract<ColorPick, { kind: 'remove' }>,
): Promise<EphemeralAnswer> {
  const outcome = await changeMemberColor(deps, panelColorChange(pick, REMOVE_REASON), { drop: 'all' });
  // A drop gives no role, so Discord has no give to refuse.
  if (outcome.result !== 'done') return { content: COLOR_REMOVED_MESSAGE };
  const [kept] = outcome.kept;
  if (kept) return keptColorAnswer(deps, pick.guildId, kept);
  // Nothing held by the click's roles nor by the last change: no role change was made.
  return { content: outcome.removed.length > 0 ? COLOR_REMOVED_MESSAGE : NO_COLOR_MESSAGE };
}

/** A colour role Discord would not take away: the bot lacks Manage Roles, or the role is above it. */
async function keptColorAnswer(deps: WorkerDeps, guildId: string, roleId: string): Promise<EphemeralAnswer> {
  const guild = deps.client.guilds.cache.get(guildId);
  if (guild?.members.me && !guild.members.me.permissions.has(PermissionFlagsBits.ManageRoles)) {
    return { content: REMOVE_MISSING_MANAGE_ROLES_MESSAGE };
  }
  const name = guild?.roles.cache.get(roleId)?.name ?? roleId;
  await recordColorWarning(deps.redis, guildId, roleId, roleAboveBotWarning(name));
  return { content: REMOVE_ROLE_ABOVE_BOT_MESSAGE };
}

/** How long the generate job waits for a member's clicks to finish before it tries again later. */
const MOVE_LOCK_WAIT_MS = 10_000;

export type MoveOutcome = 'moved' | 'chose-since' | 'left' | 'missing-permissions' | 'unknown-role';

/**
 * For `color-roles.generate` after a mode switch: gives a member who holds a retired role its
 * successor, under the member's click lock so a pick or a remove clicked meanwhile is not
 * undone: a member whose last recorded change is a role of the current mode, or a remove, chose
 * since the member list was read and is left alone. The retired role is not
 * taken away here: deleting it does that for every member at once. The successor is recorded as
 * the member's last change, so a click queued with roles from before this removes it.
 */
export async function moveMemberColor(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  successorRoleId: string,
  currentRoleIds: ReadonlySet<string>,
  reason: string,
): Promise<MoveOutcome> {
  const lock = await withLockWhenFree(
    deps.redis,
    memberColorLockKey(guildId, userId),
    MEMBER_PICK_LOCK_TTL_MS,
    MOVE_LOCK_WAIT_MS,
    async (): Promise<MoveOutcome> => {
      const last = await lastMemberColor(deps, guildId, userId);
      if (last === null || (last !== undefined && currentRoleIds.has(last))) return 'chose-since';
      try {
        await discordApi(deps.client).guilds.addRoleToMember(guildId, userId, successorRoleId, { reason });
      } catch (error) {
        if (isDiscordError(error, DiscordCodes.UnknownMember)) return 'left';
        if (isDiscordError(error, DiscordCodes.MissingPermissions)) return 'missing-permissions';
        if (isDiscordError(error, DiscordCodes.UnknownRole)) return 'unknown-role';
        throw error;
      }
      noteRoleChange(guildId, userId, successorRoleId, true);
      await recordLastMemberColor(deps, guildId, userId, successorRoleId);
      return 'moved';
    },
  );
  // A member clicking non-stop for 10 s: the job fails this attempt and its retry resumes.
  if (!lock.acquired) throw new Error(`member ${userId} kept changing their color; try again`);
  return lock.value;
}
