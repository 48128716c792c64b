/** How the previews draw Discord's text: role mentions, custom emojis and Markdown emphasis. */
import type { GuildRole, MenuEmoji } from '@spacecadet/contract';
import { readableOn } from '@spacecadet/core';
import type { ReactNode } from 'react';
import { emojiUrl } from '../../lib/cdn.ts';

export const hexOf = (color: number) => `#${color.toString(16).padStart(6, '0')}`;
/** The embed's surface (`.discord-embed`), under a mention's wash. */
const EMBED_SURFACE = 0x2b2d31;
/** A mention's wash: its role's color at this opacity over the embed. */
const WASH_ALPHA = 0.15;

/** `top` at `alpha` over `bottom`, as one RGB integer. */
function over(top: number, bottom: number, alpha: number): number {
  let out = 0;
  for (const shift of [16, 8, 0]) {
    const c = Math.round(((top >> shift) & 0xff) * alpha + ((bottom >> shift) & 0xff) * (1 - alpha));
    out |= c << shift;
  }
  return out;
}

/**
 * Discord draws a colored role's mention in its color on a faint wash of it; the color is
 * lightened as far as needed to stay readable (4.5:1) on that wash.
 */
function mentionStyle(color: number) {
  const wash = over(color, EMBED_SURFACE, WASH_ALPHA);
  return { color: hexOf(readableOn(color, wash)), backgroundColor: hexOf(wash) };
}

/** A unicode emoji as text; a custom one as its image from the CDN (its :name: if that fails). */
export function EmojiView({ emoji }: { emoji: MenuEmoji }) {
  if (emoji.id === null) return <span className="discord-emoji">{emoji.name}</span>;
  return (
    <img
      className="discord-emoji discord-emoji-custom"
      src={emojiUrl(emoji)}
      alt={`:${emoji.name}:`}
      title={`:${emoji.name}:`}
      width={20}
      height={20}
      loading="lazy"
    />
  );
}

/**
 * `<@&id>` mentions, `<:name:id>` emojis, and Discord's inline Markdown (`**bold**`,
 * `__underline__`, `*italic*`, `~~strike~~`, `` `code` ``), as Discord draws them in an embed.
 */
const MARKUP = /<@&(\d+)>|<(a?):([\w~]+):(\d+)>|\*\*(.+?)\*\*|__(.+?)__|\*(.+?)\*|~~(.+?)~~|`([^`]+)`/g;

/** One line of an embed, drawn: role mentions as @RoleName, custom emojis as images. */
export function PanelLine({ text, roles }: { text: string; roles: ReadonlyMap<string, GuildRole> }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKUP)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const [whole, roleId, animated, name, emojiId, bold, underline, italic, strike, code] = match;
    const key = `${match.index}`;
    if (roleId !== undefined) {
      const role = roles.get(roleId);
      parts.push(
        <span
          key={key}
          className="discord-mention"
          style={role?.color ? mentionStyle(role.color) : undefined}
        >
          @{role?.name ?? 'unknown-role'}
        </span>,
      );
    } else if (emojiId !== undefined && name !== undefined) {
      parts.push(<EmojiView key={key} emoji={{ id: emojiId, name, animated: animated === 'a' }} />);
    } else if (underline !== undefined) {
      parts.push(<u key={key}>{underline}</u>);
    } else if (italic !== undefined) {
      parts.push(<em key={key}>{italic}</em>);
    } else if (strike !== undefined) {
      parts.push(<s key={key}>{strike}</s>);
    } else if (code !== undefined) {
      parts.push(
        <code key={key} className="discord-code">
          {code}
        </code>,
      );
    } else {
      parts.push(<strong key={key}>{bold ?? whole}</strong>);
    }
    last = match.index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/** The reactions under a previewed message, each as the bot's one reaction. */
export function PreviewReactions({ rows }: { rows: ReadonlyArray<{ emoji: MenuEmoji }> }) {
  return (
    <ul className="discord-reactions" aria-label="Reactions">
      {rows.map((row, rowIndex) => (
        <li
          // An unsaved menu or list may hold an emoji twice: the place tells them apart.
          key={rowIndex}
          className="discord-reaction"
          title={row.emoji.id ? `:${row.emoji.name}:` : row.emoji.name}
        >
          <EmojiView emoji={row.emoji} />
          <span className="discord-reaction-count">1</span>
        </li>
      ))}
    </ul>
  );
}
