import type { JobResult } from '@spacecadet/contract';
import { loadColorRolesMode, loadPalette, loadPanelLocation } from '@spacecadet/db/queries/color-roles';
import type { Client } from 'discord.js';
import { DiscordCodes, discordApi, fetchGuildRoles, isDiscordError } from '../../discord-rest.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { ensureColorRoles, placeAndCheckRoles } from './generate.ts';
import { postColorPanel } from './panel.ts';
import { roleTargets } from './role-targets.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `color-roles.repair`, queued by the worker itself when an admin deleted a colour role or the
 * panel message (`features/repairs`): recreates every role of the current mode that was made
 * once and is gone (Generate Roles' own code: adopted after a killed run, cap checked, stored at
 * once), gives each back to the members whose recorded pick it was, moves it under the bot's
 * role; then, when a panel was posted and its message is gone, posts it again (Post Panel's own
 * code). Unlike Generate Roles it seeds nothing, creates no role that was never made, and
 * retires nothing after a switch of mode: it only puts back what was there.
 */
export async function repairColorRoles(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const palette = await loadPalette(db, guildId);
  if (palette.length === 0)
    return { ok: true, summary: 'Color roles are not set up here: nothing to repair.' };
  const mode = await loadColorRolesMode(db, guildId);
  const made = roleTargets(palette, mode).filter((target) => target.roleId !== null);
  const roles = await ensureColorRoles(context, palette, made, await fetchGuildRoles(client, guildId));
  const recreated = roles.created + roles.adopted;
  const warnings = recreated > 0 ? await placeAndCheckRoles(context) : [];
  await context.progress(70);

  let panel = '';
  const location = await loadPanelLocation(db, guildId);
  if (location.messageId && location.messageChannelId) {
    if (!(await messageExists(client, location.messageChannelId, location.messageId))) {
      try {
        panel = (await postColorPanel(context)).summary;
      } catch (error) {
        // A panel channel that is gone too: the admin picks another; the roles stay repaired.
        if (!(error instanceof JobFailure)) throw error;
        warnings.push(`Color panel not posted again: ${error.detail}`);
      }
    }
  }
  await context.progress(100);
  const said = [
    recreated > 0 ? `${plural(recreated, 'color role')} recreated` : '',
    roles.givenBack > 0 ? `given back to ${plural(roles.givenBack, 'member')}` : '',
    panel,
  ].filter(Boolean);
  const summary = said.length > 0 ? `${said.join(', ').replace(/\.$/, '')}.` : 'Everything was in place.';
  context.log.info({ recreated, givenBack: roles.givenBack, panel: panel !== '' }, 'color roles repaired');
  return { ok: true, summary, created: recreated, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** Whether the message is still there (a channel that is gone has none). */
async function messageExists(client: Client, channelId: string, messageId: string): Promise<boolean> {
  try {
    await discordApi(client).channels.getMessage(channelId, messageId);
    return true;
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMessage, DiscordCodes.UnknownChannel)) return false;
    throw error;
  }
}
