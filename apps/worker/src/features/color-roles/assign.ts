import { lastColorPickKey, memberPickLockKey } from '@spacecadet/contract';
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
import { paletteRoleIds } from './palette.ts';
import { colorTargetKey, recordColorPickKey } from './picks.ts';
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
/** Colour picks share one lock per member with every pick of this feature (`memberPickLockKey`). */
const LOCK_FEATURE = 'color-roles';

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
 * Colour picks, one lock per member with every pick of this feature (`memberPickLockKey`): of
 * the member's waiting picks only the newest is applied, and its answer is every click's.
 */
const COLOR_PICKS = registerPickFeature<ColorPick>({
  feature: LOCK_FEATURE,
  async apply(deps, picks, doneId) {
    const newest = picks.at(-1);
    // Every waiting pick is older than one already applied (it reached Redis late): that one won.
    if (!newest || (doneId !== null && BigInt(newest.id) <= BigInt(doneId))) return null;
    return newest.pick.kind === 'pick' ? applyColorPick(deps, newest.pick) : applyRemove(deps, newest.pick);
  },
});

async function applyColorPick(
  deps: WorkerDeps,
  pick: Extract<ColorPick, { kind: 'pick' }>,
): Promise<EphemeralAnswer> {
  const { guildId, roleId } = pick;
  const outcome = await swapColorRole(
    deps,
    guildId,
    pick.userId,
    roleId,
    new Set(pick.colorRoles),
    pick.payloadRoles,
  );
  if (outcome === 'missing-permissions') {
    await recordColorWarning(deps.redis, guildId, roleId, roleAboveBotWarning(pick.name));
    return { content: ROLE_ABOVE_BOT_MESSAGE };
  }
  if (outcome === 'unknown-role') return { content: ROLE_MISSING_MESSAGE };
  if (pick.targetKey) recordColorPickKey(deps, guildId, pick.userId, pick.targetKey);
  await clearColorWarnings(deps.redis, guildId, [roleId]);
  return { content: `You now have the **${pick.colorName}** color.` };
}

async function applyRemove(
  deps: WorkerDeps,
  pick: Extract<ColorPick, { kind: 'remove' }>,
): Promise<EphemeralAnswer> {
  const { guildId } = pick;
  const outcome = await removeHeldColors(
    deps,
    guildId,
    pick.userId,
    new Set(pick.colorRoles),
    pick.payloadRoles,
  );
  switch (outcome.result) {
    case 'none':
      return { content: NO_COLOR_MESSAGE };
    case 'removed':
      recordColorPickKey(deps, guildId, pick.userId, null);
      return { content: COLOR_REMOVED_MESSAGE };
    case 'missing-permissions': {
      const guild = deps.client.guilds.cache.get(guildId);
      if (guild?.members.me && !guild.members.me.permissions.has(PermissionFlagsBits.ManageRoles)) {
        return { content: REMOVE_MISSING_MANAGE_ROLES_MESSAGE };
      }
      const name = guild?.roles.cache.get(outcome.roleId)?.name ?? outcome.roleId;
      await recordColorWarning(deps.redis, guildId, outcome.roleId, roleAboveBotWarning(name));
      return { content: REMOVE_ROLE_ABOVE_BOT_MESSAGE };
    }
  }
}

/** Covers clicks that waited on the lock: their payload predates the swap recorded here. */
export const LAST_COLOR_TTL_SECONDS = 5 * 60;
/**
 * What `lastColorPickKey` holds after a remove: the member's last change left them without a
 * colour. Not simply deleted: a pick queued behind the remove carries roles from before it (its
 * old colour among them) and must not take that colour as already held.
 */
export const NO_COLOR_RECORD = 'none';

/** The palette roles the member holds: the click's payload plus what the last change recorded. */
function heldColorRoles(
  payloadRoles: readonly string[],
  last: string | null,
  colorRoles: ReadonlySet<string>,
): string[] {
  const held = new Set(payloadRoles);
  if (last !== null && last !== NO_COLOR_RECORD) held.add(last);
  return [...held].filter((id) => colorRoles.has(id));
}

/**
 * Gives the role and removes every other palette role the member may hold, under the member's
 * lock. What they hold is the click's payload plus the colour the previous swap gave them
 * (recorded in Redis): a click that waited on the lock carries roles from before that swap.
 * No GET of the member, because every REST call counts against the bot's 50 requests per
 * second and a click costs only the PUT, and a DELETE when the member had another colour.
 * Removing a role the member no longer holds is a no-op for Discord.
 */
async function swapColorRole(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  roleId: string,
  colorRoles: ReadonlySet<string>,
  payloadRoles: readonly string[],
): Promise<'done' | 'missing-permissions' | 'unknown-role'> {
  const { client, redis } = deps;
  const lastKey = lastColorPickKey(guildId, userId);
  try {
    const last = await redis.get(lastKey);
    // The payload is current unless a change happened since; then only that change's result is
    // known (a colour, or none after a remove).
    const alreadyHeld = payloadRoles.includes(roleId) && (last === null || last === roleId);
    if (!alreadyHeld) {
      await discordApi(client).guilds.addRoleToMember(guildId, userId, roleId, { reason: REASON });
    }
    for (const other of heldColorRoles(payloadRoles, last, colorRoles)) {
      if (other !== roleId) {
        await discordApi(client).guilds.removeRoleFromMember(guildId, userId, other, { reason: REASON });
      }
    }
    await redis.set(lastKey, roleId, 'EX', LAST_COLOR_TTL_SECONDS);
    return 'done';
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.MissingPermissions)) return 'missing-permissions';
    if (isDiscordError(error, DiscordCodes.UnknownRole)) return 'unknown-role';
    throw error;
  }
}

type RemoveOutcome = { result: 'none' | 'removed' } | { result: 'missing-permissions'; roleId: string };

/**
 * Under the member's lock: removes every palette role they hold (the payload plus the last
 * recorded change, as for a pick) and records that they now have none. No REST call when they
 * hold none. A role already deleted from the server is not held, so Unknown Role is fine.
 */
async function removeHeldColors(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  colorRoles: ReadonlySet<string>,
  payloadRoles: readonly string[],
): Promise<RemoveOutcome> {
  const { client, redis } = deps;
  const lastKey = lastColorPickKey(guildId, userId);
  const held = heldColorRoles(payloadRoles, await redis.get(lastKey), colorRoles);
  if (held.length === 0) return { result: 'none' };
  for (const roleId of held) {
    try {
      await discordApi(client).guilds.removeRoleFromMember(guildId, userId, roleId, {
        reason: REMOVE_REASON,
      });
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.MissingPermissions))
        return { result: 'missing-permissions', roleId };
      if (!isDiscordError(error, DiscordCodes.UnknownRole)) throw error;
    }
  }
  await redis.set(lastKey, NO_COLOR_RECORD, 'EX', LAST_COLOR_TTL_SECONDS);
  return { result: 'removed' };
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
  const { client, redis } = deps;
  const lastKey = lastColorPickKey(guildId, userId);
  const lock = await withLockWhenFree(
    redis,
    memberPickLockKey(LOCK_FEATURE, guildId, userId),
    MEMBER_PICK_LOCK_TTL_MS,
    MOVE_LOCK_WAIT_MS,
    async (): Promise<MoveOutcome> => {
      const last = await redis.get(lastKey);
      if (last === NO_COLOR_RECORD || (last !== null && currentRoleIds.has(last))) return 'chose-since';
      try {
        await discordApi(client).guilds.addRoleToMember(guildId, userId, successorRoleId, { reason });
      } catch (error) {
        if (isDiscordError(error, DiscordCodes.UnknownMember)) return 'left';
        if (isDiscordError(error, DiscordCodes.MissingPermissions)) return 'missing-permissions';
        if (isDiscordError(error, DiscordCodes.UnknownRole)) return 'unknown-role';
        throw error;
      }
      await redis.set(lastKey, successorRoleId, 'EX', LAST_COLOR_TTL_SECONDS);
      return 'moved';
    },
  );
  // A member clicking non-stop for 10 s: the job fails this attempt and its retry resumes.
  if (!lock.acquired) throw new Error(`member ${userId} kept changing their color; try again`);
  return lock.value;
}
