import type { ColorRolesMode } from '@spacecadet/contract';
import { type JobResult, MESSAGES } from '@spacecadet/contract';
import {
  buildColorPanel,
  buildColorPanelEmbed,
  COLOR_CUSTOM_ID_PREFIX,
  toDiscordComponents,
} from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import {
  loadColorRolesMode,
  loadPalette,
  loadPanelLocation,
  type StoredColor,
  savePanelMessage,
} from '@spacecadet/db/queries/color-roles';
import type { APIMessage, Client } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError, postMessageOnce } from '../../discord-rest.ts';
import {
  channelPermissionFailure,
  deleteGuildMessage,
  editGuildMessage,
  requireGuildChannel,
} from '../../guild-scope.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { toPanelColors } from './palette.ts';

const PANEL_CHANNEL_MISSING = 'The panel channel no longer exists. Pick another channel.';
/** How far back to look for a panel a killed run posted but never recorded. */
const RECENT_MESSAGES = 50;

/** The posted panel: the shared layout (same buttons, same order as the dashboard preview). */
export function buildPanelMessage(palette: readonly StoredColor[], mode: ColorRolesMode) {
  const panel = buildColorPanel(toPanelColors(palette), mode);
  return { content: '', embeds: [buildColorPanelEmbed(mode)], components: toDiscordComponents(panel) };
}

/**
 * `color-roles.post-panel`: edits the stored panel message if it still exists, else posts a
 * new one in the panel channel, and stores its id and channel. When the admin picked another
 * channel since the last post, the panel moves: posted in the new channel, then the old message
 * is deleted.
 */
export async function postColorPanel(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const location = await loadPanelLocation(db, guildId);
  if (!location.channelId) throw new JobFailure('invalid_input', MESSAGES.selectChannelFirst);
  const channelId = location.channelId;
  await requireGuildChannel(client, guildId, channelId, PANEL_CHANNEL_MISSING);
  const palette = await loadPalette(db, guildId);
  if (palette.length === 0) {
    throw new JobFailure('invalid_input', 'No colors configured yet: run Generate Roles first.');
  }
  const mode = await loadColorRolesMode(db, guildId);
  const body = buildPanelMessage(palette, mode);
  await context.progress(20);

  const old =
    location.messageId && location.messageChannelId && location.messageChannelId !== channelId
      ? { channelId: location.messageChannelId, messageId: location.messageId }
      : null;
  let messageId: string;
  let summary: string;
  try {
    const previousId = (old ? null : location.messageId) ?? (await findUnrecordedPanel(client, channelId));
    if (previousId && (await editGuildMessage(client, channelId, previousId, body))) {
      messageId = previousId;
      summary = 'Color panel updated.';
    } else {
      await context.progress(60);
      // One post per panel message it replaces (none, a deleted one, or the one in the old
      // channel): a rerun while this post still waits behind a rate limit gets this panel back.
      const nonce = messageNonce('color-panel', guildId, channelId, location.messageId);
      const message = await postMessageOnce(client, channelId, body, nonce);
      messageId = message.id;
      summary = 'Color panel posted.';
    }
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) {
      throw new JobFailure('invalid_input', PANEL_CHANNEL_MISSING);
    }
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) {
      throw await channelPermissionFailure(
        client,
        guildId,
        channelId,
        'color_panel',
        'I cannot post in the panel channel. Check my permissions there.',
      );
    }
    throw error;
  }
  // The old message goes once the new panel exists and before the new id replaces its id in
  // Postgres: a run killed in between is retried, finds the new panel by its buttons and
  // deletes the old one again (already gone is fine), so no retry leaves two panels.
  const warnings: string[] = [];
  if (old) {
    await context.progress(80);
    try {
      await deleteGuildMessage(client, guildId, old.channelId, old.messageId);
    } catch (error) {
      if (!isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) throw error;
      warnings.push(`I could not delete the old panel in <#${old.channelId}>. Delete it by hand.`);
    }
    summary = 'Color panel moved to the new channel.';
  }
  await savePanelMessage(db, guildId, { id: messageId, channelId });
  await context.progress(100);
  return { ok: true, summary, ...(warnings.length > 0 ? { warnings } : {}) };
}

/**
 * A run killed after Discord posted the panel but before its id was stored leaves a panel
 * nobody knows about; find it so the retry edits it instead of posting a second one.
 */
async function findUnrecordedPanel(client: Client, channelId: string): Promise<string | null> {
  const botId = client.user?.id;
  if (!botId) return null;
  let messages: APIMessage[];
  try {
    messages = await discordApi(client).channels.getMessages(channelId, { limit: RECENT_MESSAGES });
  } catch (error) {
    // Without history access the best we can do is post; a missing channel is reported by the caller.
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) throw error;
    return null;
  }
  const panel = messages.find(
    (message) =>
      message.author.id === botId &&
      (message.components ?? []).some(
        (row) =>
          'components' in row &&
          row.components.some(
            (component) => 'custom_id' in component && component.custom_id.startsWith(COLOR_CUSTOM_ID_PREFIX),
          ),
      ),
  );
  return panel?.id ?? null;
}
