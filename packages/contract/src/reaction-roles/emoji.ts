/**
 * Emojis of role menus as admins type them and as Discord identifies a reaction. Shared by the
 * API (which refuses a bad one), the worker (which reacts with it and matches reactions to it)
 * and core's panel layout.
 */

/** A unicode emoji by itself, or a server's custom emoji by its id. */
export type MenuEmoji = { id: null; name: string } | { id: string; name: string; animated: boolean };

const CUSTOM_EMOJI = /^<(a?):([\w~]{1,32}):(\d{17,20})>$|^(a:)?([\w~]{1,32}):(\d{17,20})$/;
/** One pictographic emoji, flag or keycap, with its modifiers and joiners. */
const UNICODE_EMOJI =
  /^(?=[\s\S]*(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3))[\p{Extended_Pictographic}\p{Emoji_Component}]+$/u;
const graphemes = new Intl.Segmenter();

/**
 * The emoji an admin typed: one unicode emoji, or a custom emoji as Discord's chat writes it
 * (`<:name:id>`, `<a:name:id>`) or as its reaction routes do (`name:id`). Null for anything else.
 */
export function parseMenuEmoji(text: string): MenuEmoji | null {
  const trimmed = text.trim();
  const custom = CUSTOM_EMOJI.exec(trimmed);
  if (custom) {
    return {
      id: custom[3] ?? custom[6] ?? '',
      name: custom[2] ?? custom[5] ?? '',
      animated: custom[1] === 'a' || custom[4] === 'a:',
    };
  }
  if (UNICODE_EMOJI.test(trimmed) && [...graphemes.segment(trimmed)].length === 1) {
    return { id: null, name: trimmed };
  }
  return null;
}

/**
 * What makes two reactions the same: a custom emoji's id, a unicode emoji's text without its
 * variation selectors (U+FE0E text, U+FE0F emoji style), so `❤` and `❤️` are one emoji for the
 * duplicate check and for matching a reaction to its row. Only a key: Discord gets the emoji
 * as typed.
 */
export function menuEmojiKey(emoji: {
  id?: string | null | undefined;
  name?: string | null | undefined;
}): string {
  return emoji.id ?? (emoji.name ?? '').replace(/[\uFE0E\uFE0F]/g, '');
}

/** The emoji as the reaction routes take it in their path (before URL encoding). */
export function reactionRouteEmoji(emoji: MenuEmoji): string {
  return emoji.id === null ? emoji.name : `${emoji.name}:${emoji.id}`;
}

/** The emoji as message text shows it. */
export function emojiMarkdown(emoji: MenuEmoji): string {
  return emoji.id === null ? emoji.name : `<${emoji.animated ? 'a' : ''}:${emoji.name}:${emoji.id}>`;
}
