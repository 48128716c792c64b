import type { ColorRolesMode, JobResult } from '@spacecadet/contract';
import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import {
  loadColorRolesMode,
  loadPalette,
  seedDefaultPaletteIfEmpty,
  setColorRoleId,
  setShadeRoleId,
} from '@spacecadet/db/queries/color-roles';
import { type APIRole, DiscordAPIError } from 'discord.js';
import { discordApi, fetchGuildRoles, fetchMember, highestRolePosition } from '../../discord-rest.ts';
import type { JobContext } from '../../jobs/types.ts';
import {
  adoptOrphansWithinCap,
  clearPendingRole,
  createMarkedRole,
  loadPendingRoles,
} from '../../roles/pending-roles.ts';
import { retireOtherModeRoles } from './mode-switch.ts';
import { paletteRoleIds } from './palette.ts';
import { type PaletteSync, refreshPostedPanel, syncPaletteRoles } from './palette-sync.ts';
import { buildPanelMessage } from './panel.ts';
import { giveColorPicksBack } from './picks.ts';
import { colorRolePlacement } from './role-placement.ts';
import { COLOR_ROLES_FEATURE, type RoleTarget, roleTargets } from './role-targets.ts';
import { clearColorWarnings, recordColorWarning, roleAboveBotWarning } from './warnings.ts';

const ROLE_REASON = 'Space Cadet: color roles';

/**
 * `color-roles.generate`: seeds the default palette if the guild has none, brings Discord in
 * line with the admin's edits (deletes removed colours' roles, renames and recolors edited ones
 * in place: `syncPaletteRoles`), then makes sure every colour (basic) or shade (shades mode) has
 * a Discord role. Each new role id is written to Postgres right after Discord creates it, so a
 * retry after a crash resumes. After a switch of mode it then retires the other mode's roles,
 * moving their members to the closest new role (`retireOtherModeRoles`). Last, a posted panel
 * behind a palette edit is edited in place to show the palette as it is now.
 */
export async function generateColorRoles(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);

  const mode = await loadColorRolesMode(db, guildId);
  const seeded = await seedDefaultPaletteIfEmpty(db, guildId);
  await context.progress(5);

  const palette = await loadPalette(db, guildId);
  const targets = roleTargets(palette, mode);
  const fetched = await fetchGuildRoles(client, guildId);
  const synced = await syncPaletteRoles(context, targets, fetched);
  // Removed colours' roles are gone now: they free slots under Discord's role cap.
  const roles = synced.deleted > 0 ? await fetchGuildRoles(client, guildId) : fetched;
  const existing = new Set(roles.map((role) => role.id));
  const made = await ensureColorRoles(context, palette, targets, roles, (fraction) =>
    context.progress(10 + 50 * fraction),
  );
  const { created } = made;
  await context.progress(60);

  const retired = await retireOtherModeRoles(context, mode, existing, (fraction) =>
    context.progress(60 + 35 * fraction),
  );
  const warnings = [...synced.warnings, ...retired.warnings, ...(await placeAndCheckRoles(context))];
  const panelUpdated = await refreshPostedPanel(
    context,
    buildPanelMessage(await loadPalette(db, guildId), mode),
  );
  await context.progress(100);
  const reused = targets.length - created;
  context.log.info(
    {
      mode,
      seeded,
      created,
      adopted: made.adopted,
      givenBack: made.givenBack,
      reused,
      edited: synced.edited,
      removed: synced.deleted,
      panelUpdated,
      deleted: retired.deleted,
      moved: retired.moved,
    },
    'color roles generated',
  );
  return {
    ok: true,
    summary: `${created} role${created === 1 ? '' : 's'} created, ${reused} already present (${mode} mode${seeded ? ', default palette added' : ''}).${editedSummary(synced)}${retiredSummary(mode, retired)}${panelUpdated ? ' Color panel updated.' : ''}`,
    created,
    deleted: retired.deleted + synced.deleted,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** " 2 roles renamed or recolored; 1 role of a removed color deleted." when there were any. */
function editedSummary(synced: PaletteSync): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const said = [
    synced.edited > 0 ? `${plural(synced.edited, 'role')} renamed or recolored` : '',
    synced.deleted > 0 ? `${plural(synced.deleted, 'role')} of removed colors deleted` : '',
  ].filter(Boolean);
  return said.length > 0 ? ` ${said.join('; ')}.` : '';
}

/** " 12 basic-mode roles removed; 3 members moved to the closest shade." when there were any. */
function retiredSummary(mode: ColorRolesMode, retired: { deleted: number; moved: number }): string {
  if (retired.deleted === 0 && retired.moved === 0) return '';
  const other = mode === 'shades' ? 'basic' : 'shades';
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return ` ${plural(retired.deleted, `${other}-mode role`)} removed; ${plural(retired.moved, 'member')} moved to the closest ${mode === 'shades' ? 'shade' : 'color'}.`;
}

export interface EnsuredColorRoles {
  created: number;
  adopted: number;
  /** Members given a recreated role back (their recorded pick). */
  givenBack: number;
}

/**
 * Makes every target (a colour or shade of the current mode) have a live Discord role: each one
 * without a role, or whose role is gone from `roles`, gets one adopted from a killed run or newly
 * created, stored right after Discord made it. The whole run is checked against the 250-role cap
 * first. Members whose recorded pick was a recreated role get the new one. Shared by Generate
 * Roles and the repair after an admin deleted colour roles.
 */
export async function ensureColorRoles(
  context: JobContext,
  palette: readonly StoredColor[],
  targets: readonly RoleTarget[],
  roles: readonly APIRole[],
  onProgress: (fraction: number) => Promise<void> = async () => {},
): Promise<EnsuredColorRoles> {
  const { redis } = context.deps;
  const guildId = context.payload.guild_id;
  const existing = new Set(roles.map((role) => role.id));
  const claimed = new Set([...paletteRoleIds(palette)].filter((id) => existing.has(id)));
  const missing = targets.filter((target) => !target.roleId || !existing.has(target.roleId));
  if (missing.length === 0) return { created: 0, adopted: 0, givenBack: 0 };

  const pending = await loadPendingRoles(redis, COLOR_ROLES_FEATURE, guildId);
  const adoptions = adoptOrphansWithinCap(
    { missing, pending, roles: () => roles, claimed, count: roles.length },
    { need: 'colors need', advice: 'Delete some roles or colors, then try again.' },
  );

  let created = 0;
  let done = 0;
  const recreated = new Map<string, string>();
  for (const target of missing) {
    const adopted = adoptions.get(target.key);
    const roleId =
      adopted?.id ?? (await createMarkedRole(context, COLOR_ROLES_FEATURE, target, 'color roles'));
    await saveRoleId(context, target, roleId);
    await clearPendingRole(redis, COLOR_ROLES_FEATURE, guildId, target.key);
    if (!adopted) created += 1;
    recreated.set(target.key, roleId);
    done += 1;
    await onProgress(done / missing.length);
  }
  const current = new Set(targets.map((target) => recreated.get(target.key) ?? target.roleId ?? ''));
  const givenBack = await giveColorPicksBack(context.deps, guildId, recreated, current);
  return { created, adopted: adoptions.size, givenBack };
}

async function saveRoleId(context: JobContext, target: RoleTarget, roleId: string): Promise<void> {
  if (target.kind === 'color') await setColorRoleId(context.deps.db, target.id, roleId);
  else await setShadeRoleId(context.deps.db, target.id, roleId);
}

/**
 * Moves the colour roles just below the bot's highest role, so a member's colour shows over
 * their other coloured roles (one PATCH, none when they are already there). Then warns about
 * colour roles at or above the bot's role: members cannot be given them (the dashboard shows
 * the warning now rather than when members click). Clears warnings of roles that became
 * manageable.
 */
export async function placeAndCheckRoles(context: JobContext): Promise<string[]> {
  const { client, db, redis } = context.deps;
  const guildId = context.payload.guild_id;
  const botId = client.user?.id;
  if (!botId) return [];
  const [roles, me, palette] = await Promise.all([
    fetchGuildRoles(client, guildId),
    fetchMember(client, guildId, botId),
    loadPalette(db, guildId),
  ]);
  const ids = paletteRoleIds(palette);
  const warnings: string[] = [];
  const moves = colorRolePlacement(roles, guildId, me.roles, ids);
  if (moves.length > 0) {
    try {
      await discordApi(client).guilds.setRolePositions(guildId, moves, { reason: ROLE_REASON });
      context.log.info({ moved: moves.length }, 'color roles moved below the bot role');
    } catch (error) {
      // Roles exist by now: a refused move (permissions, a concurrent edit) is a warning, not a failure.
      if (!(error instanceof DiscordAPIError && error.status >= 400 && error.status < 500)) throw error;
      warnings.push(
        "I could not move the color roles below my role, so members' other role colors may show instead. Drag them up in Server Settings → Roles.",
      );
    }
  }
  const botPosition = highestRolePosition(roles, me.roles);
  const fine: string[] = [];
  for (const role of roles) {
    if (!ids.has(role.id)) continue;
    if (role.position >= botPosition) {
      const warning = roleAboveBotWarning(role.name);
      warnings.push(warning);
      await recordColorWarning(redis, guildId, role.id, warning);
    } else {
      fine.push(role.id);
    }
  }
  await clearColorWarnings(redis, guildId, fine);
  return warnings;
}
