import { createHash } from 'node:crypto';
import { buildPersonalityMessage, personalityMessageSignature } from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import {
  queuePersonalityCleanup,
  type StoredPersonalityQuestion,
  savePersonalityMessage,
} from '@spacecadet/db/queries/personality-roles';
import type { Client, RESTPostAPIChannelMessageJSONBody } from 'discord.js';
import { DiscordCodes, fetchMessageOrNull, isDiscordError, postMessageOnce } from '../../discord-rest.ts';
import { deleteGuildMessage, editGuildMessage, requireGuildChannel } from '../../guild-scope.ts';
import type { JobContext } from '../../jobs/types.ts';
import {
  ASSIGN_CHANNEL_MISSING,
  type ChannelPage,
  type ChannelRef,
  channelPage,
  findUnrecorded,
  guardedIn,
} from './assign-channel.ts';
import { isVerified, markVerified, verificationTicket } from './verified.ts';

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
  const sync: QuestionsSync = { where, db, recent, outcome };
  for (const [index, question] of questions.entries()) {
    const { messageId, messageChannelId } = question;
    if (!question.isEnabled) {
      if (messageId && messageChannelId) {
        await deleteGuildMessage(client, guildId, messageChannelId, messageId);
        await savePersonalityMessage(db, question.id, null);
        outcome.deleted += 1;
      }
    } else {
      await syncQuestionMessage(sync, question);
    }
    await onProgress((index + 1) / questions.length);
  }
  markVerified(client, guildId, ticket);
  return outcome;
}

/** What syncing the questions' messages shares: the channel, its recent page, the tally. */
interface QuestionsSync {
  where: ChannelRef;
  db: JobContext['deps']['db'];
  recent: ChannelPage;
  outcome: MessagesOutcome;
}

/**
 * An enabled question's message in the channel: kept when up to date, edited when stale,
 * re-posted when deleted, moved from the old channel, or posted when it has none.
 */
async function syncQuestionMessage(sync: QuestionsSync, question: StoredPersonalityQuestion): Promise<void> {
  const { where, recent, outcome } = sync;
  const { client, guildId, channelId } = where;
  const { messageId, messageChannelId } = question;
  const body = messageBodyOf(question);
  const wanted = personalityMessageSignature(body);
  const digest = digestOf(wanted);
  if (messageId && messageChannelId === channelId) {
    const current =
      recent.byId.get(messageId) ??
      (recent.full ? await fetchMessageOrNull(client, channelId, messageId) : null);
    if (current && personalityMessageSignature(current) === wanted) {
      if (question.messageDigest !== digest) await recordQuestionMessage(sync, question, messageId, digest);
      outcome.upToDate += 1;
    } else if (
      current &&
      (await guardedIn(where, () => editGuildMessage(client, channelId, messageId, body)))
    ) {
      await recordQuestionMessage(sync, question, messageId, digest);
      outcome.edited += 1;
    } else {
      await recordQuestionMessage(
        sync,
        question,
        await postQuestionMessage(sync, question, body, wanted),
        digest,
      );
      outcome.reposted += 1;
    }
  } else if (messageId && messageChannelId) {
    const newId = await postQuestionMessage(sync, question, body, wanted);
    // The old message goes once the new one exists and before its id is replaced: a run
    // killed in between finds the new one in this channel and deletes the old one again.
    await deleteGuildMessage(client, guildId, messageChannelId, messageId).catch((error: unknown) => {
      if (!isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) throw error;
      outcome.warnings.push(
        `I could not delete the old "${question.title}" message in <#${messageChannelId}>. Delete it by hand.`,
      );
    });
    await recordQuestionMessage(sync, question, newId, digest);
    outcome.moved += 1;
  } else {
    await recordQuestionMessage(
      sync,
      question,
      await postQuestionMessage(sync, question, body, wanted),
      digest,
    );
    outcome.posted += 1;
  }
}

/**
 * Posts the question's message, unless a run killed after posting it (and before recording
 * it) left one in the channel: that one is kept, edited if stale, so no retry posts twice.
 */
async function postQuestionMessage(
  { where, recent }: QuestionsSync,
  question: StoredPersonalityQuestion,
  body: RESTPostAPIChannelMessageJSONBody,
  wanted: string,
): Promise<string> {
  const { client, channelId } = where;
  const unrecorded = findUnrecorded(recent.messages, question, client.user?.id);
  if (unrecorded) {
    if (personalityMessageSignature(unrecorded) !== wanted) {
      await guardedIn(where, () => editGuildMessage(client, channelId, unrecorded.id, body));
    }
    return unrecorded.id;
  }
  // One post per question and the message it replaces (none, a deleted one, or the one in
  // the old channel): a rerun while this post still waits behind a rate limit gets it back.
  const nonce = messageNonce('personality-question', question.id, channelId, question.messageId);
  const message = await guardedIn(where, () => postMessageOnce(client, channelId, body, nonce));
  return message.id;
}

/** Stores the question's message; one a reset removed meanwhile is queued for deletion. */
async function recordQuestionMessage(
  { where, db }: QuestionsSync,
  question: StoredPersonalityQuestion,
  messageId: string,
  digest: string,
): Promise<void> {
  const { guildId, channelId } = where;
  if (await savePersonalityMessage(db, question.id, { id: messageId, channelId, digest })) return;
  // A reset removed the question while this run posted its message: the message goes too.
  await queuePersonalityCleanup(db, {
    guildId,
    kind: 'message',
    targetId: messageId,
    channelId,
    name: question.title,
  });
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
