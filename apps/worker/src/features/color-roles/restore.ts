import { apiCacheChannel, encodeApiCacheDrop, type JobResult } from '@spacecadet/contract';
import {
  loadPalette,
  loadPanelLocation,
  saveColorRolesMode,
  savePanelChannel,
} from '@spacecadet/db/queries/color-roles';
import { paletteColorIds, restorePaletteRows } from '@spacecadet/db/queries/color-snapshots';
import { COLOR_PICK_SCOPE, writeMemberPicks } from '@spacecadet/db/queries/member-picks';
import type { HistoryRow } from '@spacecadet/db/schema';
import { DiscordAPIError } from 'discord.js';
import { discordApi, fetchGuildRoles } from '../../discord-rest.ts';
import { channelScope } from '../../guild-scope.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { restoreRequested, stepContext } from '../history/restores.ts';
import { generateColorRoles } from './generate.ts';
import { postColorPanel } from './panel.ts';
import { giveColorPicksBack } from './picks.ts';
import { type ColorResetSnapshot, resetColorRoles } from './reset.ts';

const ROLE_REASON = 'Space Cadet: color roles reset undone';

/**
 * `color-roles.restore`: the undo of Reset Color Roles, for every entry of the guild whose undo
 * was asked (`loadRestoresRequested`), oldest first. Each: a palette the admin set up since is
 * reset first (the undo asked to overwrite it); the snapshot's palette is written back with its
 * ids and its color mode, the holders' picks recorded, then Generate Roles runs (it recreates the roles and gives
 * them back to the members whose pick they are), the roles go back to their old order, and the
 * panel is posted again in its channel. A rerun after a crash resumes: the palette keeps the
 * roles stored so far, Generate makes only the missing ones, the panel post edits its message.
 */
export async function restoreColorRoles(context: JobContext): Promise<JobResult> {
  await context.progress(0);
  const warnings: string[] = [];
  let roles = 0;
  let given = 0;
  const restored = await restoreRequested(context, 'color_roles.reset', warnings, async (entry) => {
    const one = await restoreOne(context, entry, warnings);
    roles += one.roles;
    given += one.given;
  });
  await context.progress(100);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    ok: true,
    summary:
      restored === 0
        ? 'Nothing to restore.'
        : `Color roles restored: ${plural(roles, 'role')} recreated for ${plural(given, 'member')} who held them.`,
    created: roles,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

async function restoreOne(
  context: JobContext,
  entry: HistoryRow,
  warnings: string[],
): Promise<{ roles: number; given: number }> {
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
  await writeMemberPicks(
    db,
    Object.entries(snapshot.holders).flatMap(([key, userIds]) =>
      userIds.map((userId) => ({ guildId, userId, scope: COLOR_PICK_SCOPE, targetKeys: [key] })),
    ),
  );
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
  const generated = await generateColorRoles(step);
  warnings.push(...(generated.warnings ?? []));
  // Generate gives back only the roles it created in this run: after a crash, the roles the
  // killed run created go to their holders here (a member who holds it already is left as is).
  const palette = await loadPalette(db, guildId);
  const current = new Map<string, string>();
  for (const color of palette) {
    if (color.roleId) current.set(`color:${color.id}`, color.roleId);
    for (const shade of color.shades) if (shade.roleId) current.set(`shade:${shade.id}`, shade.roleId);
  }
  const held = new Map([...current].filter(([key]) => (snapshot.holders[key]?.length ?? 0) > 0));
  await giveColorPicksBack(context.deps, guildId, held, new Set(current.values()));
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
  const given = Object.values(snapshot.holders).reduce((n, userIds) => n + userIds.length, 0);
  return { roles: created, given };
}

/**
 * Puts the recreated roles in the order they had before the reset, within the places they hold
 * now (Generate puts them just below the bot's role): one PATCH, none when already in order.
 */
async function restoreOrder(context: JobContext, snapshot: ColorResetSnapshot): Promise<string[]> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const oldPosition = new Map(snapshot.roles.map((role) => [role.key, role.position]));
  const palette = await loadPalette(db, guildId);
  const keyOf = new Map<string, string>();
  for (const color of palette) {
    if (color.roleId) keyOf.set(color.roleId, `color:${color.id}`);
    for (const shade of color.shades) if (shade.roleId) keyOf.set(shade.roleId, `shade:${shade.id}`);
  }
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
