import { createHash } from 'node:crypto';
import {
  buildPersonalityMessage,
  personalityCustomIdPrefix,
  personalityMessageSignature,
} from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import {
  queuePersonalityCleanup,
  type StoredPersonalityQuestion,
  savePersonalityMessage,
} from '@spacecadet/db/queries/personality-roles';
import type { APIMessage, Client, RESTPostAPIChannelMessageJSONBody } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError, postMessageOnce } from '../../discord-rest.ts';
import {
  channelPermissionFailure,
  deleteGuildMessage,
  editGuildMessage,
  requireGuildChannel,
} from '../../guild-scope.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { isVerified, markVerified, verificationTicket } from './verified.ts';

export const ASSIGN_CHANNEL_MISSING = 'The assignment channel no longer exists. Pick another channel.';
const CHANNEL_FORBIDDEN = 'I cannot read or post in the assignment channel. Check my permissions there.';
/** Discord's largest page of channel messages. */
const PAGE = 100;

export interface MessagesOutcome {
  posted: number;
  reposted: number;
  edited: number;
  moved: number;
  deleted: number;
  upToDate: number;
  warnings: string[];
}

export function messageBodyOf(question: StoredPersonalityQuestion) {
  return buildPersonalityMessage({
    questionType: question.questionType,
    title: question.title,
    description: question.description,
    isMultiSelect: question.isMultiSelect,
    options: question.options,
  });
}

/**
 * Makes the assignment channel show one message per enabled question, as built now: a missing
 * one is posted (or re-posted when someone deleted it), a stale one edited, one left in the old
 * channel after a change of channel moved (posted here, then the old one deleted), a disabled
 * question's deleted. Discord's copy of each message is read (one page of the channel, plus a
 * GET for a message older than that page) and written to only when it differs, so a run with
 * nothing to repair makes no write.
 */
export async function syncPersonalityMessages(
  context: JobContext,
  questions: readonly StoredPersonalityQuestion[],
  channelId: string,
  onProgress: (fraction: number) => Promise<void> = async () => {},
): Promise<MessagesOutcome> {
  const { client, db } = context.deps;
  const guildId = context.payload.guild_id;
  const ticket = verificationTicket(client, guildId);
  await requireGuildChannel(client, guildId, channelId, ASSIGN_CHANNEL_MISSING);
  const where: ChannelRef = { client, guildId, channelId };
  const guarded = <T>(call: () => Promise<T>) => guardedIn(where, call);
  const recent = await channelPage(where);
  const outcome: MessagesOutcome = {
    posted: 0,
    reposted: 0,
    edited: 0,
    moved: 0,
    deleted: 0,
    upToDate: 0,
    warnings: [],
  };

  /**
   * Posts the question's message, unless a run killed after posting it (and before recording
   * it) left one in the channel: that one is kept, edited if stale, so no retry posts twice.
   */
  const post = async (
    question: StoredPersonalityQuestion,
    body: RESTPostAPIChannelMessageJSONBody,
    wanted: string,
  ): Promise<string> => {
    const unrecorded = findUnrecorded(recent.messages, question, client.user?.id);
    if (unrecorded) {
      if (personalityMessageSignature(unrecorded) !== wanted) {
        await guarded(() => editGuildMessage(client, channelId, unrecorded.id, body));
      }
      return unrecorded.id;
    }
    // One post per question and the message it replaces (none, a deleted one, or the one in
    // the old channel): a rerun while this post still waits behind a rate limit gets it back.
    const nonce = messageNonce('personality-question', question.id, channelId, question.messageId);
    const message = await guarded(() => postMessageOnce(client, channelId, body, nonce));
    return message.id;
  };
  const record = async (question: StoredPersonalityQuestion, messageId: string, digest: string) => {
    if (await savePersonalityMessage(db, question.id, { id: messageId, channelId, digest })) return;
    // A reset removed the question while this run posted its message: the message goes too.
    await queuePersonalityCleanup(db, {
      guildId,
      kind: 'message',
      targetId: messageId,
      channelId,
      name: question.title,
    });
  };

  for (const [index, question] of questions.entries()) {
    const { messageId, messageChannelId } = question;
    if (!question.isEnabled) {
      if (messageId && messageChannelId) {
        await deleteGuildMessage(client, guildId, messageChannelId, messageId);
        await savePersonalityMessage(db, question.id, null);
        outcome.deleted += 1;
      }
    } else {
      const body = messageBodyOf(question);
      const wanted = personalityMessageSignature(body);
      const digest = digestOf(wanted);
      if (messageId && messageChannelId === channelId) {
        const current =
          recent.byId.get(messageId) ??
          (recent.full ? await readMessage(client, channelId, messageId) : null);
        if (current && personalityMessageSignature(current) === wanted) {
          if (question.messageDigest !== digest) await record(question, messageId, digest);
          outcome.upToDate += 1;
        } else if (current && (await guarded(() => editGuildMessage(client, channelId, messageId, body)))) {
          await record(question, messageId, digest);
          outcome.edited += 1;
        } else {
          await record(question, await post(question, body, wanted), digest);
          outcome.reposted += 1;
        }
      } else if (messageId && messageChannelId) {
        const newId = await post(question, body, wanted);
        // The old message goes once the new one exists and before its id is replaced: a run
        // killed in between finds the new one in this channel and deletes the old one again.
        await deleteGuildMessage(client, guildId, messageChannelId, messageId).catch((error: unknown) => {
          if (!isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess))
            throw error;
          outcome.warnings.push(
            `I could not delete the old "${question.title}" message in <#${messageChannelId}>. Delete it by hand.`,
          );
        });
        await record(question, newId, digest);
        outcome.moved += 1;
      } else {
        await record(question, await post(question, body, wanted), digest);
        outcome.posted += 1;
      }
    }
    await onProgress((index + 1) / questions.length);
  }
  markVerified(client, guildId, ticket);
  return outcome;
}

/** A short digest of a message signature, stored with the message id. */
function digestOf(signature: string): string {
  return createHash('sha256').update(signature).digest('base64url').slice(0, 22);
}

/**
 * The digest of the question's message as built now. Every refresh of every guild asks for
 * ten of them: a question object the setup cache hands out again keeps its digest (its
 * content cannot change without the setup version moving, which brings new objects).
 */
export function wantedDigest(question: StoredPersonalityQuestion): string {
  let digest = digests.get(question);
  if (digest === undefined) {
    digest = digestOf(personalityMessageSignature(messageBodyOf(question)));
    digests.set(question, digest);
  }
  return digest;
}
const digests = new WeakMap<StoredPersonalityQuestion, string>();

/**
 * Whether the stored messages can be trusted without reading the channel: this process read
 * them back and heard of no delete since (`isVerified`), every enabled question has its message
 * in `channelId` showing what it would be built as now, and no disabled question has one.
 */
export function storedMessagesCurrent(
  client: Client,
  guildId: string,
  questions: readonly StoredPersonalityQuestion[],
  channelId: string,
): boolean {
  if (!isVerified(client, guildId)) return false;
  return questions.every((question) =>
    question.isEnabled
      ? question.messageId !== null &&
        question.messageChannelId === channelId &&
        question.messageDigest === wantedDigest(question)
      : question.messageId === null,
  );
}

interface ChannelPage {
  messages: APIMessage[];
  byId: Map<string, APIMessage>;
  /** A full page: an older message may exist beyond it. */
  full: boolean;
}

async function channelPage(where: ChannelRef): Promise<ChannelPage> {
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

async function readMessage(client: Client, channelId: string, messageId: string): Promise<APIMessage | null> {
  try {
    return await discordApi(client).channels.getMessage(channelId, messageId);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMessage)) return null;
    throw error;
  }
}

/**
 * A question message a killed run posted but never recorded: the bot's, with the question's
 * components, and not the message recorded (which the caller found missing or elsewhere).
 */
function findUnrecorded(
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

interface ChannelRef {
  client: Client;
  guildId: string;
  channelId: string;
}

/** Discord's answers a retry cannot fix, in words for the admin (naming a missing permission). */
async function guardedIn<T>(where: ChannelRef, call: () => Promise<T>): Promise<T> {
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
