/**
 * The `emoji` of a button or a select option: Discord's checks on it, and how the chat view
 * draws it. Discord takes a partial emoji: `{ name }` for a unicode emoji, or
 * `{ id, name?, animated? }` for a custom one.
 */

export interface EmojiIssue {
  /** Path below the component's (or option's) `emoji` key. */
  path: string[];
  code: string;
  message: string;
}

const SNOWFLAKE = /^\d{17,20}$/;
// One or more emoji code points (Emoji_Component covers ZWJ, variation selectors, skin tones,
// keycaps and flag letters); at least one must be a pictograph, a flag letter or a keycap, so
// "abc" or "123" fail.
export const UNICODE_EMOJI =
  /^(?=[\s\S]*(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3))[\p{Extended_Pictographic}\p{Emoji_Component}]+$/u;

const invalidEmoji = (): EmojiIssue => ({
  path: ['name'],
  // Discord answers this code for select options' emoji too.
  code: 'BUTTON_COMPONENT_INVALID_EMOJI',
  message: 'Invalid emoji',
});

/** What Discord rejects in a component emoji, or `null` when it is fine. */
export function componentEmojiIssue(emoji: unknown): EmojiIssue | null {
  if (typeof emoji !== 'object' || emoji === null || Array.isArray(emoji)) {
    return { path: [], code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' };
  }
  const { id, name, animated } = emoji as Record<string, unknown>;
  if (animated !== undefined && animated !== null && typeof animated !== 'boolean') {
    return { path: ['animated'], code: 'BOOLEAN_TYPE_COERCE', message: 'Must be either true or false.' };
  }
  if (id !== undefined && id !== null) {
    if ((typeof id !== 'string' && typeof id !== 'number') || !SNOWFLAKE.test(String(id))) {
      return { path: ['id'], code: 'NUMBER_TYPE_COERCE', message: `Value "${String(id)}" is not snowflake.` };
    }
    // A custom emoji is found by id; its name is only a hint.
    return name === undefined || name === null || typeof name === 'string' ? null : invalidEmoji();
  }
  return typeof name === 'string' && UNICODE_EMOJI.test(name) ? null : invalidEmoji();
}

/**
 * Browser code (plain ES2020, part of the chat view script): what to draw for a component emoji.
 * `{ text }` for a unicode emoji, `{ src, alt }` for a custom one (the sandbox CDN serves
 * `/emojis/:id`), or `null` for none.
 */
export const EMOJI_VIEW_SOURCE = `
function emojiView(emoji) {
  if (!emoji || typeof emoji !== 'object') return null;
  if (emoji.id) return { src: '/emojis/' + emoji.id + (emoji.animated ? '.gif' : '.webp') + '?size=48', alt: ':' + (emoji.name || 'emoji') + ':' };
  return emoji.name ? { text: emoji.name } : null;
}
`;
