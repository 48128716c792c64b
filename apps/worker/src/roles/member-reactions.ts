import type { WorkerDeps } from '../deps.ts';
import { DiscordCodes, discordApi, isDiscordError } from '../discord-rest.ts';

/**
 * Takes the member's reaction away (a refused pick, a role swapped out); gone already is fine.
 * `emoji` as the reaction routes take it (`reactionRouteEmoji`).
 */
export async function removeMemberReaction(
  deps: WorkerDeps,
  channelId: string,
  messageId: string,
  emoji: string,
  userId: string,
): Promise<void> {
  try {
    await discordApi(deps.client).channels.deleteUserMessageReaction(channelId, messageId, emoji, userId);
  } catch (error) {
    if (!isDiscordError(error, DiscordCodes.UnknownMessage, DiscordCodes.UnknownEmoji)) throw error;
  }
}
