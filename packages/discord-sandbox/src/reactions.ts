import {
  type APIMessage,
  type APIReaction,
  GatewayDispatchEvents,
  PermissionFlagsBits as P,
  ReactionType,
} from 'discord-api-types/v10';
import { UNICODE_EMOJI } from './component-emoji.ts';
import type { SandboxChannel, SandboxGuild } from './fixture.ts';
import { apiMember } from './payloads.ts';
import { channelPermissions } from './permissions.ts';
import type { ReactionEmoji, SandboxState } from './state.ts';

/** Discord's limit of distinct emojis on one message. */
export const MAX_REACTION_EMOJIS = 20;

/** A refusal with Discord's status, code and message. */
export interface ReactionRefusal {
  status: 400 | 403;
  code: number;
  message: string;
}

export const UNKNOWN_EMOJI: ReactionRefusal = { status: 400, code: 10014, message: 'Unknown Emoji' };
const MISSING_PERMISSIONS: ReactionRefusal = { status: 403, code: 50013, message: 'Missing Permissions' };

const graphemes = new Intl.Segmenter();
/** One unicode emoji (one grapheme: a ZWJ sequence, a flag or a keycap counts as one), as Discord takes. */
const isOneEmoji = (text: string) => UNICODE_EMOJI.test(text) && [...graphemes.segment(text)].length === 1;

const sameEmoji = (a: ReactionEmoji, b: ReactionEmoji) => (a.id ?? a.name) === (b.id ?? b.name);

/**
 * The emoji a reaction route names (already URL-decoded): a unicode emoji, or a custom one as
 * `name:id` (discord.js sends `a:name:id` for an animated one). A custom emoji must exist in the
 * guild, or, for the bot, in another guild it is in (then `external`); its stored name wins
 * over the one in the path, as on Discord. Null when Discord would answer 10014.
 */
export function findReactionEmoji(
  state: SandboxState,
  guild: SandboxGuild,
  userId: string,
  raw: string,
): { emoji: ReactionEmoji; external: boolean } | null {
  const custom = /^(?:a:)?[^:]*:(\d{17,20})$/.exec(raw);
  if (!custom) return isOneEmoji(raw) ? { emoji: { id: null, name: raw }, external: false } : null;
  const id = custom[1];
  const places =
    userId === state.application.id
      ? [guild, ...[...state.guilds.values()].filter((g) => g !== guild && state.botIsIn(g))]
      : [guild];
  for (const place of places) {
    const found = (place.emojis ?? []).find((e) => e.id === id);
    if (found?.id && found.name) {
      return {
        emoji: { id: found.id, name: found.name, animated: found.animated === true },
        external: place !== guild,
      };
    }
  }
  return null;
}

/**
 * The emoji a removal or a listing names: as `findReactionEmoji` finds it, or a custom emoji
 * the message already carries (its emoji may since have been deleted).
 */
export function findReactedEmoji(
  state: SandboxState,
  guild: SandboxGuild,
  message: APIMessage,
  raw: string,
): ReactionEmoji | null {
  const known = findReactionEmoji(state, guild, state.application.id, raw);
  if (known) return known.emoji;
  const id = /^(?:a:)?[^:]*:(\d{17,20})$/.exec(raw)?.[1];
  return state.reactionsOf(message.id).find((r) => id !== undefined && r.emoji.id === id)?.emoji ?? null;
}

/** The users who reacted to `message` with `emoji`, in the order they reacted. */
export function reactors(state: SandboxState, message: APIMessage, emoji: ReactionEmoji): string[] {
  return state.reactionsOf(message.id).find((r) => sameEmoji(r.emoji, emoji))?.user_ids ?? [];
}

/**
 * Why Discord refuses `userId`'s reaction, or null: Read Message History is always needed, Add
 * Reactions (and the room for a 21st emoji: 30010) only when the emoji is new on the message,
 * Use External Emojis for another guild's emoji, and a message author who blocked the user
 * blocks the reaction (90001). A reaction the user already has is no refusal.
 */
export function reactionRefusal(
  state: SandboxState,
  guild: SandboxGuild,
  channel: SandboxChannel,
  message: APIMessage,
  userId: string,
  found: { emoji: ReactionEmoji; external: boolean },
): ReactionRefusal | null {
  const bits = channelPermissions(guild, channel, userId);
  if ((bits & P.ReadMessageHistory) === 0n) return MISSING_PERMISSIONS;
  const records = state.reactionsOf(message.id);
  const record = records.find((r) => sameEmoji(r.emoji, found.emoji));
  if (record?.user_ids.includes(userId)) return null;
  if (!record) {
    if ((bits & P.AddReactions) === 0n) return MISSING_PERMISSIONS;
    if (records.length >= MAX_REACTION_EMOJIS) {
      return { status: 400, code: 30010, message: 'Maximum number of reactions reached (20)' };
    }
  }
  if (found.external && (bits & P.UseExternalEmojis) === 0n) return MISSING_PERMISSIONS;
  if (state.blocks.get(message.author.id)?.has(userId)) {
    return { status: 403, code: 90001, message: 'Reaction was blocked' };
  }
  return null;
}

/** Rewrites the message's `reactions` as Discord serializes them (`me` is the bot); absent when none. */
function syncMessage(state: SandboxState, message: APIMessage): void {
  const records = state.reactionsOf(message.id);
  if (records.length === 0) {
    delete message.reactions;
    return;
  }
  message.reactions = records.map(
    (r): APIReaction => ({
      count: r.user_ids.length,
      count_details: { burst: 0, normal: r.user_ids.length },
      me: r.user_ids.includes(state.application.id),
      me_burst: false,
      burst_colors: [],
      emoji: { ...r.emoji },
    }),
  );
}

const where = (guild: SandboxGuild, message: APIMessage) => ({
  channel_id: message.channel_id,
  message_id: message.id,
  guild_id: guild.id,
});

/** Adds `userId`'s reaction and sends MESSAGE_REACTION_ADD; false when it was already there. */
export function addReaction(
  state: SandboxState,
  guild: SandboxGuild,
  message: APIMessage,
  emoji: ReactionEmoji,
  userId: string,
): boolean {
  const records = state.reactionsOf(message.id);
  let record = records.find((r) => sameEmoji(r.emoji, emoji));
  if (record?.user_ids.includes(userId)) return false;
  if (!record) {
    record = { emoji: { ...emoji }, user_ids: [] };
    records.push(record);
    state.reactions.set(message.id, records);
  }
  record.user_ids.push(userId);
  syncMessage(state, message);
  const member = guild.members.find((m) => m.user_id === userId);
  state.dispatch(
    GatewayDispatchEvents.MessageReactionAdd,
    {
      user_id: userId,
      type: ReactionType.Normal,
      ...where(guild, message),
      ...(member ? { member: apiMember(state, member) } : {}),
      emoji: { ...emoji },
      message_author_id: message.author.id,
      burst: false,
      burst_colors: [],
    },
    guild.id,
  );
  return true;
}

/** Takes `userId`'s reaction away and sends MESSAGE_REACTION_REMOVE; false when there was none. */
export function removeReaction(
  state: SandboxState,
  guild: SandboxGuild,
  message: APIMessage,
  emoji: ReactionEmoji,
  userId: string,
): boolean {
  const records = state.reactionsOf(message.id);
  const record = records.find((r) => sameEmoji(r.emoji, emoji));
  if (!record?.user_ids.includes(userId)) return false;
  record.user_ids = record.user_ids.filter((id) => id !== userId);
  if (record.user_ids.length === 0) records.splice(records.indexOf(record), 1);
  syncMessage(state, message);
  state.dispatch(
    GatewayDispatchEvents.MessageReactionRemove,
    {
      user_id: userId,
      ...where(guild, message),
      emoji: { ...emoji },
      burst: false,
      type: ReactionType.Normal,
    },
    guild.id,
  );
  return true;
}

/** Removes every reaction (MESSAGE_REACTION_REMOVE_ALL). */
export function removeAllReactions(state: SandboxState, guild: SandboxGuild, message: APIMessage): void {
  state.reactions.delete(message.id);
  syncMessage(state, message);
  state.dispatch(GatewayDispatchEvents.MessageReactionRemoveAll, where(guild, message), guild.id);
}

/** Removes every reaction with one emoji (MESSAGE_REACTION_REMOVE_EMOJI when there were any). */
export function removeEmojiReactions(
  state: SandboxState,
  guild: SandboxGuild,
  message: APIMessage,
  emoji: ReactionEmoji,
): void {
  const records = state.reactionsOf(message.id);
  const index = records.findIndex((r) => sameEmoji(r.emoji, emoji));
  if (index < 0) return;
  records.splice(index, 1);
  syncMessage(state, message);
  state.dispatch(
    GatewayDispatchEvents.MessageReactionRemoveEmoji,
    { ...where(guild, message), emoji: { ...emoji } },
    guild.id,
  );
}
