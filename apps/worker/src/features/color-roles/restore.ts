import { apiCacheChannel, encodeApiCacheDrop, type JobResult } from '@spacecadet/contract';
import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import {
  loadPalette,
  loadPanelLocation,
  saveColorRolesMode,
  savePanelChannel,
} from '@spacecadet/db/queries/color-roles';
import { paletteColorIds, restorePaletteRows } from '@spacecadet/db/queries/color-snapshots';
import { COLOR_PICK_SCOPE, forgetMemberPick, writeMemberPicks } from '@spacecadet/db/queries/member-picks';
import type { RemappedReferences } from '@spacecadet/db/queries/role-references';
import type { HistoryRow } from '@spacecadet/db/schema';
import { DiscordAPIError } from 'discord.js';
import { discordApi, fetchGuildRoles } from '../../discord-rest.ts';
import { channelScope } from '../../guild-scope.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { movedReferencesSummary, moveRoleReferences } from '../../roles/role-references.ts';
import { restoreRequested, stepContext } from '../history/restores.ts';
import { moveMemberColor } from './assign.ts';
import { generateColorRoles } from './generate.ts';
import { postColorPanel } from './panel.ts';
import { type ColorResetSnapshot, resetColorRoles } from './reset.ts';

const ROLE_REASON = 'Space Cadet: color roles reset undone';

/**
 * `color-roles.restore`: the undo of Reset Color Roles, for every entry of the guild whose undo
 * was asked (`loadRestoresRequested`), oldest first. Each: a palette the admin set up since is
 * reset first (the undo asked to overwrite it); the snapshot's palette is written back with its
 * ids and its color mode, then Generate Roles recreates the roles; every menu, reward, no-XP
 * role and boost that named an old role moves to the new one (posted menus are repaired), each
 * holder gets back exactly the roles they held, the roles go back to their old order, and the
 * panel is posted again in its channel. A rerun after a crash resumes: the palette keeps the
 * roles stored so far, Generate makes only the missing ones, the panel post edits its message.
 */
export async function restoreColorRoles(context: JobContext): Promise<JobResult> {
  await context.progress(0);
  const warnings: string[] = [];
  let roles = 0;
  let given = 0;
  let moved = '';
  const restored = await restoreRequested(context, 'color_roles.reset', warnings, async (entry) => {
    const one = await restoreOne(context, entry, warnings);
    roles += one.roles;
    given += one.given;
    moved += movedReferencesSummary(one.moved);
  });
  await context.progress(100);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    ok: true,
    summary:
      restored === 0
        ? 'Nothing to restore.'
        : `Color roles restored: ${plural(roles, 'role')} recreated, given back to ${plural(given, 'member')} who held them.${moved}`,
    created: roles,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

async function restoreOne(
  context: JobContext,
  entry: HistoryRow,
  warnings: string[],
): Promise<{ roles: number; given: number; moved: RemappedReferences }> {
  const { db } = context.deps;
  const guildId = context.payload.guild_id;
  const snapshot = entry.snapshot as ColorResetSnapshot | null;
  if (!snapshot?.palette) {
    throw new JobFailure('invalid_input', `History entry ${entry.id} holds nothing to restore.`);
  }
  const step = stepContext(context);
  const ours = new Set(snapshot.palette.colors.map((color) => color.id));
  if ((await paletteColorIds(db, guildId)).some((id) => !ours.has(id))) {
    // The admin set colors up again since: the undo replaces them (its confirmation said so).
    await resetColorRoles(step);
  }
  await restorePaletteRows(db, guildId, snapshot.palette);
  // The holders' picks name the roles of the mode the palette had (a shade's or a colour's):
  // Generate makes those only in that mode.
  if (snapshot.mode && (await saveColorRolesMode(db, guildId, snapshot.mode))) {
    const { redis, config } = context.deps;
    await redis.publish(
      apiCacheChannel(config.redisPrefix),
      encodeApiCacheDrop({ kind: 'config', id: guildId }),
    );
  }
  // The channel is checked again: one deleted since is not stored back (the panel's post then
  // says to pick a channel).
  const channelId = snapshot.panel.channelId;
  if (
    channelId &&
    !(await loadPanelLocation(db, guildId)).channelId &&
    (await channelScope(context.deps.client, guildId, channelId)) === 'own'
  ) {
    await savePanelChannel(db, guildId, channelId);
  }
  // The holders' picks are recorded after Generate, so it gives nothing back itself: each holder
  // gets exactly the roles they held below, counted once.
  const generated = await generateColorRoles(step);
  warnings.push(...(generated.warnings ?? []));
  const current = paletteRolesByKey(await loadPalette(db, guildId));
  const recreated = new Map<string, string>();
  for (const role of snapshot.roles) {
    const roleId = current.get(role.key);
    if (roleId) recreated.set(role.roleId, roleId);
  }
  const moved = await moveRoleReferences(context, recreated);
  const given = await giveHeldColorsBack(context, snapshot.holders, current);
  warnings.push(...(await restoreOrder(context, snapshot)));
  if (snapshot.panel.posted) {
    try {
      const posted = await postColorPanel(step);
      warnings.push(...(posted.warnings ?? []));
    } catch (error) {
      if (!(error instanceof JobFailure)) throw error;
      warnings.push(`The color panel was not posted again: ${error.detail}`);
    }
  }
  const created = typeof generated.created === 'number' ? generated.created : 0;
  return { roles: created, given, moved };
}

/** Palette entry key (`color:<id>` / `shade:<id>`) → its role id now. */
function paletteRolesByKey(palette: readonly StoredColor[]): Map<string, string> {
  const current = new Map<string, string>();
  for (const color of palette) {
    if (color.roleId) current.set(`color:${color.id}`, color.roleId);
    for (const shade of color.shades) if (shade.roleId) current.set(`shade:${shade.id}`, shade.roleId);
  }
  return current;
}

/**
 * Each member of the snapshot gets back exactly the colour roles they held (all of them, when
 * they held more than one), under their click lock, and their picks are recorded so a later
 * repair gives them back again. A member who picked another colour since keeps it. Answers how
 * many members got a role back.
 */
async function giveHeldColorsBack(
  context: JobContext,
  holders: ColorResetSnapshot['holders'],
  current: ReadonlyMap<string, string>,
): Promise<number> {
  const { db } = context.deps;
  const guildId = context.payload.guild_id;
  const byMember = new Map<string, string[]>();
  for (const [key, userIds] of Object.entries(holders)) {
    if (!current.has(key)) continue;
    for (const userId of userIds) byMember.set(userId, [...(byMember.get(userId) ?? []), key]);
  }
  await writeMemberPicks(
    db,
    [...byMember].map(([userId, targetKeys]) => ({ guildId, userId, scope: COLOR_PICK_SCOPE, targetKeys })),
  );
  const paletteIds = new Set(current.values());
  let given = 0;
  for (const [userId, keys] of byMember) {
    const roleIds = new Set(keys.flatMap((key) => current.get(key) ?? []));
    // A member whose last pick is one of the roles they held has not chosen another since.
    const others = new Set([...paletteIds].filter((roleId) => !roleIds.has(roleId)));
    let got = false;
    for (const key of keys) {
      const roleId = current.get(key) ?? '';
      const outcome = await moveMemberColor(context.deps, guildId, userId, roleId, others, ROLE_REASON);
      if (outcome === 'moved') got = true;
      if (outcome === 'left') await forgetMemberPick(db, guildId, userId, key);
    }
    if (got) given += 1;
  }
  return given;
}

/**
 * Puts the recreated roles in the order they had before the reset, within the places they hold
 * now (Generate puts them just below the bot's role): one PATCH, none when already in order.
 */
async function restoreOrder(context: JobContext, snapshot: ColorResetSnapshot): Promise<string[]> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const oldPosition = new Map(snapshot.roles.map((role) => [role.key, role.position]));
  const keyOf = new Map(
    [...paletteRolesByKey(await loadPalette(db, guildId))].map(([key, roleId]) => [roleId, key]),
  );
  const live = (await fetchGuildRoles(client, guildId)).filter((role) => {
    const key = keyOf.get(role.id);
    return key !== undefined && oldPosition.has(key);
  });
  const places = live.map((role) => role.position).sort((a, b) => a - b);
  const wanted = [...live].sort(
    (a, b) =>
      (oldPosition.get(keyOf.get(a.id) ?? '') ?? 0) - (oldPosition.get(keyOf.get(b.id) ?? '') ?? 0) ||
      a.position - b.position,
  );
  const moves = wanted.flatMap((role, index) => {
    const position = places[index] ?? role.position;
    return position === role.position ? [] : [{ id: role.id, position }];
  });
  if (moves.length === 0) return [];
  try {
    await discordApi(client).guilds.setRolePositions(guildId, moves, { reason: ROLE_REASON });
    return [];
  } catch (error) {
    if (!(error instanceof DiscordAPIError && error.status >= 400 && error.status < 500)) throw error;
    return ['I could not put the color roles back in their old order. Drag them in Server Settings → Roles.'];
  }
}
