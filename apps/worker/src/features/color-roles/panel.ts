import { type JobResult, MESSAGES } from '@spacecadet/contract';
import { buildColorPanel, buildColorPanelEmbed, toDiscordComponents } from '@spacecadet/core';
import { type APIMessage, type Client, Routes } from 'discord.js';
import { DiscordCodes, isDiscordError } from '../../discord-rest.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import {
  type ColorRolesMode,
  colorRolesModeFor,
  loadPalette,
  loadPanelLocation,
  type StoredColor,
  savePanelMessageId,
  toPanelColors,
} from './palette-store.ts';

const COLOR_CUSTOM_ID_PREFIX = 'color:';
/** How far back to look for a panel a killed run posted but never recorded. */
const RECENT_MESSAGES = 50;

/** The posted panel: the shared layout (same buttons, same order as the dashboard preview). */
export function buildPanelMessage(palette: readonly StoredColor[], mode: ColorRolesMode) {
  const panel = buildColorPanel(toPanelColors(palette), mode);
  return { content: '', embeds: [buildColorPanelEmbed(mode)], components: toDiscordComponents(panel) };
}

/**
 * `color-roles.post-panel`: edits the stored panel message if it still exists, else posts a
 * new one in the panel channel, and stores its id.
 */
export async function postColorPanel(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const location = await loadPanelLocation(db, guildId);
  if (!location.channelId) throw new JobFailure('invalid_input', MESSAGES.selectChannelFirst);
  const palette = await loadPalette(db, guildId);
  if (palette.length === 0) {
    throw new JobFailure('invalid_input', 'No colors configured yet: run Generate Roles first.');
  }
  const mode = await colorRolesModeFor(db, guildId);
  const body = buildPanelMessage(palette, mode);
  await context.progress(20);

  const channelId = location.channelId;
  try {
    const previousId = location.messageId ?? (await findUnrecordedPanel(client, channelId));
    if (previousId && (await editMessage(client, channelId, previousId, body))) {
      await savePanelMessageId(db, guildId, previousId);
      await context.progress(100);
      return { ok: true, summary: 'Color panel updated.' };
    }
    await context.progress(60);
    const message = (await client.rest.post(Routes.channelMessages(channelId), { body })) as APIMessage;
    await savePanelMessageId(db, guildId, message.id);
    await context.progress(100);
    return { ok: true, summary: 'Color panel posted.' };
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) {
      throw new JobFailure('invalid_input', 'The panel channel no longer exists. Pick another channel.');
    }
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) {
      throw new JobFailure('forbidden', 'I cannot post in the panel channel. Check my permissions there.');
    }
    throw error;
  }
}

/** True if the message was edited; false if it no longer exists (deleted by someone). */
async function editMessage(
  client: Client,
  channelId: string,
  messageId: string,
  body: object,
): Promise<boolean> {
  try {
    await client.rest.patch(Routes.channelMessage(channelId, messageId), { body });
    return true;
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMessage)) return false;
    throw error;
  }
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
    messages = (await client.rest.get(Routes.channelMessages(channelId), {
      query: new URLSearchParams({ limit: String(RECENT_MESSAGES) }),
    })) as APIMessage[];
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
