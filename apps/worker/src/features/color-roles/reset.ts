import type { JobResult } from '@spacecadet/contract';
import {
  deletePalette,
  forgetRemovedColorRole,
  loadPalette,
  loadPanelLocation,
  loadRemovedColorRoles,
  savePanelMessage,
  setColorRoleId,
  setShadeRoleId,
} from '@spacecadet/db/queries/color-roles';
import type { APIRole } from 'discord.js';
import { DiscordCodes, discordApi, fetchGuildRoles, isDiscordError } from '../../discord-rest.ts';
import { deleteGuildMessage } from '../../guild-scope.ts';
import type { JobContext } from '../../jobs/types.ts';
import { clearPendingRole, findOrphanRole, loadPendingRoles } from '../../roles/pending-roles.ts';
import { paletteRoleIds } from './palette.ts';
import { COLOR_ROLES_FEATURE } from './role-targets.ts';
import { clearColorWarnings } from './warnings.ts';

const ROLE_REASON = 'Space Cadet: color roles reset';

/**
 * `color-roles.reset`: deletes the Discord roles the palette created, the posted panel, then
 * the palette itself. Each deleted role is unrecorded at once, so a retry skips it.
 */
export async function resetColorRoles(context: JobContext): Promise<JobResult> {
  const { db, client, redis } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);

  const palette = await loadPalette(db, guildId);
  const roles = await fetchGuildRoles(client, guildId);
  const recorded = paletteRoleIds(palette);
  // Roles a killed generate run created but never recorded are ours too.
  const pending = await loadPendingRoles(redis, COLOR_ROLES_FEATURE, guildId);
  const orphans = [...pending.values()]
    .map((mark) => findOrphanRole(roles, mark, recorded))
    .filter((role): role is APIRole => role !== undefined);

  const entries = palette.flatMap((color) => [
    { roleId: color.roleId, unrecord: () => setColorRoleId(db, color.id, null), name: color.name },
    ...color.shades.map((shade) => ({
      roleId: shade.roleId,
      unrecord: () => setShadeRoleId(db, shade.id, null),
      name: shade.name,
    })),
  ]);
  // Roles of colours removed from the palette that no Generate Roles deleted yet.
  const removed = (await loadRemovedColorRoles(db, guildId)).map((role) => ({
    roleId: role.roleId,
    unrecord: () => forgetRemovedColorRole(db, guildId, role.roleId),
    name: role.name,
  }));
  const work = [
    ...entries.filter((entry) => entry.roleId !== null),
    ...removed,
    ...orphans.map((role) => ({ roleId: role.id, unrecord: async () => {}, name: role.name })),
  ];

  let deleted = 0;
  const warnings: string[] = [];
  for (const [index, entry] of work.entries()) {
    if (entry.roleId === null) continue;
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
