import { personalityCustomIdPrefix } from '@spacecadet/core';
import type { StoredPersonalityQuestion } from '@spacecadet/db/queries/personality-roles';
import type { APIMessage, Client } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import { channelPermissionFailure } from '../../guild-scope.ts';
import { JobFailure } from '../../jobs/types.ts';

/**
 * The assignment channel as the question messages' sync reads it: its recent page, a message
 * older than that, one a killed run posted but never recorded, and Discord's refusals there in
 * the admin's words.
 */

export const ASSIGN_CHANNEL_MISSING = 'The assignment channel no longer exists. Pick another channel.';
const CHANNEL_FORBIDDEN = 'I cannot read or post in the assignment channel. Check my permissions there.';
/** Discord's largest page of channel messages. */
const PAGE = 100;

export interface ChannelPage {
  messages: APIMessage[];
  byId: Map<string, APIMessage>;
  /** A full page: an older message may exist beyond it. */
  full: boolean;
}

export async function channelPage(where: ChannelRef): Promise<ChannelPage> {
  const { client, channelId } = where;
  const messages = await guardedIn(where, () =>
    discordApi(client).channels.getMessages(channelId, { limit: PAGE }),
  );
  return {
    messages,
    byId: new Map(messages.map((message) => [message.id, message])),
    full: messages.length >= PAGE,
  };
}

/**
 * A question message a killed run posted but never recorded: the bot's, with the question's
 * components, and not the message recorded (which the caller found missing or elsewhere).
 */
export function findUnrecorded(
  messages: readonly APIMessage[],
  question: StoredPersonalityQuestion,
  botId: string | undefined,
): APIMessage | undefined {
  if (!botId) return undefined;
  const prefix = personalityCustomIdPrefix(question.questionType);
  return messages.find(
    (message) =>
      message.author.id === botId &&
      message.id !== question.messageId &&
      (message.components ?? []).some(
        (row) =>
          'components' in row &&
          row.components.some(
            (component) =>
              'custom_id' in component &&
              (component.custom_id === prefix || component.custom_id.startsWith(`${prefix}:`)),
          ),
      ),
  );
}

export interface ChannelRef {
  client: Client;
  guildId: string;
  channelId: string;
}

/** Discord's answers a retry cannot fix, in words for the admin (naming a missing permission). */
export async function guardedIn<T>(where: ChannelRef, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel))
      throw new JobFailure('invalid_input', ASSIGN_CHANNEL_MISSING);
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) {
      const { client, guildId, channelId } = where;
      throw await channelPermissionFailure(
        client,
        guildId,
        channelId,
        'personality_messages',
        CHANNEL_FORBIDDEN,
      );
    }
    throw error;
  }
}
