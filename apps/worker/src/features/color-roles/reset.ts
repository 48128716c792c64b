import type { ColorRolesMode, JobResult } from '@spacecadet/contract';
import {
  deletePalette,
  forgetRemovedColorRole,
  loadColorRolesMode,
  loadPanelLocation,
  savePanelMessage,
  setColorRoleId,
  setShadeRoleId,
} from '@spacecadet/db/queries/color-roles';
import {
  type ColorResetRole,
  colorPicksByKey,
  colorResetRoles,
  loadPaletteRows,
  type PaletteRows,
} from '@spacecadet/db/queries/color-snapshots';
import { attachSnapshot } from '@spacecadet/db/queries/history';
import type { APIRole } from 'discord.js';
import { DiscordCodes, discordApi, fetchGuildRoles, isDiscordError } from '../../discord-rest.ts';
import { roleHolders } from '../../guild-members.ts';
import { deleteGuildMessage } from '../../guild-scope.ts';
import type { JobContext } from '../../jobs/types.ts';
import { clearPendingRole, findOrphanRole, loadPendingRoles } from '../../roles/pending-roles.ts';
import { COLOR_ROLES_FEATURE } from './role-targets.ts';
import { clearColorWarnings } from './warnings.ts';

const ROLE_REASON = 'Space Cadet: color roles reset';

/**
 * `color-roles.reset`: deletes the Discord roles the palette created (`colorResetRoles`, what
 * the confirmation's preview counts too), the posted panel, then the palette itself. Each
 * deleted role is unrecorded at once, so a retry skips it. Before anything goes, what goes is
 * stored into the request's history entry (`history_entry_id`) for the undo.
 */
export async function resetColorRoles(context: JobContext): Promise<JobResult> {
  const { db, client, redis } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);

  const recordedRoles = await colorResetRoles(db, guildId);
  const roles = await fetchGuildRoles(client, guildId);
  const recorded = new Set(recordedRoles.map((role) => role.roleId));
  // Roles a killed generate run created but never recorded are ours too.
  const pending = await loadPendingRoles(redis, COLOR_ROLES_FEATURE, guildId);
  const orphans = [...pending.values()]
    .map((mark) => findOrphanRole(roles, mark, recorded))
    .filter((role): role is APIRole => role !== undefined);
  if (context.payload.history_entry_id !== undefined) {
    await snapshotColorReset(context, context.payload.history_entry_id, recordedRoles, roles);
  }

  const unrecord = (role: ColorResetRole) => {
    const [kind, id] = role.key.split(':');
    if (kind === 'color') return setColorRoleId(db, Number(id), null);
    if (kind === 'shade') return setShadeRoleId(db, Number(id), null);
    return forgetRemovedColorRole(db, guildId, role.roleId);
  };
  const work = [
    ...recordedRoles.map((role) => ({
      roleId: role.roleId,
      unrecord: () => unrecord(role),
      name: role.name,
    })),
    ...orphans.map((role) => ({ roleId: role.id, unrecord: async () => {}, name: role.name })),
  ];

  let deleted = 0;
  const warnings: string[] = [];
  for (const [index, entry] of work.entries()) {
    try {
      await discordApi(client).guilds.deleteRole(guildId, entry.roleId, { reason: ROLE_REASON });
      deleted += 1;
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.MissingPermissions)) {
        warnings.push(
          `Could not delete the role "${entry.name}": my role must be above it. Delete it by hand.`,
        );
      } else if (!isDiscordError(error, DiscordCodes.UnknownRole)) {
        throw error;
      }
    }
    await entry.unrecord();
    await context.progress((80 * (index + 1)) / work.length);
  }

  const panel = await loadPanelLocation(db, guildId);
  if (panel.messageChannelId && panel.messageId) {
    await deleteGuildMessage(client, guildId, panel.messageChannelId, panel.messageId);
  }
  await savePanelMessage(db, guildId, null);
  await deletePalette(db, guildId);
  await clearPendingRole(redis, COLOR_ROLES_FEATURE, guildId);
  await clearColorWarnings(redis, guildId);
  await context.progress(100);
  return {
    ok: true,
    summary: `${deleted} role${deleted === 1 ? '' : 's'} deleted; palette and panel removed.`,
    deleted,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** What Reset Color Roles removed, as its history entry keeps it for the undo (`restore.ts`). */
export interface ColorResetSnapshot {
  palette: PaletteRows;
  mode: ColorRolesMode;
  panel: { channelId: string | null; posted: boolean };
  /** The deleted palette roles as Discord showed them. */
  roles: Array<{ roleId: string; key: string; name: string; color: number; position: number }>;
  /** Target key (`color:<id>` / `shade:<id>`) → the members who held its role. */
  holders: Record<string, string[]>;
  /** Read from the member list, or (Discord refused it) from the recorded picks. */
  holdersFrom: 'members' | 'picks';
}

/**
 * Stores what the reset is about to remove into the request's history entry (kept as the first
 * run saw it when the job runs again): the palette with its ids, the panel's channel, each
 * role's name, color and position, and who holds each role.
 */
async function snapshotColorReset(
  context: JobContext,
  entryId: number,
  recordedRoles: readonly ColorResetRole[],
  guildRoles: readonly APIRole[],
): Promise<void> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const byId = new Map(guildRoles.map((role) => [role.id, role]));
  const paletteRoles = recordedRoles.filter((role) => role.key !== 'removed');
  const held = await roleHolders(client, guildId, new Set(paletteRoles.map((role) => role.roleId)));
  const keyOf = new Map(paletteRoles.map((role) => [role.roleId, role.key]));
  const holders: Record<string, string[]> = {};
  if (held) {
    for (const [roleId, userIds] of held) {
      const key = keyOf.get(roleId);
      if (key) holders[key] = userIds;
    }
  }
  const panel = await loadPanelLocation(db, guildId);
  const snapshot: ColorResetSnapshot = {
    palette: await loadPaletteRows(db, guildId),
    mode: await loadColorRolesMode(db, guildId),
    panel: { channelId: panel.channelId, posted: panel.messageId !== null },
    roles: paletteRoles.flatMap((role) => {
      const live = byId.get(role.roleId);
      return live
        ? [
            {
              roleId: role.roleId,
              key: role.key,
              name: live.name,
              color: live.color,
              position: live.position,
            },
          ]
        : [];
    }),
    holders: held ? holders : await colorPicksByKey(db, guildId),
    holdersFrom: held ? 'members' : 'picks',
  };
  await attachSnapshot(db, guildId, entryId, { ...snapshot }, { ready: true });
}
