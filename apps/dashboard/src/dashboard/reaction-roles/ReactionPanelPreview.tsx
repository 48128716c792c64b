import type { GuildRole, MenuEmoji, ReactionList } from '@spacecadet/contract';
import { buildReactionListPanel, type RoleMenuOption, readableOn } from '@spacecadet/core';
import type { ReactNode } from 'react';
import { emojiUrl } from '../../lib/cdn.ts';

const hexOf = (color: number) => `#${color.toString(16).padStart(6, '0')}`;
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

/** `<@&id>` mentions, `<:name:id>` emojis and `**bold**`, as Discord draws them in an embed. */
const MARKUP = /<@&(\d+)>|<(a?):([\w~]+):(\d+)>|\*\*(.+?)\*\*/g;

/** One line of the embed, drawn: role mentions as @RoleName, custom emojis as images. */
export function PanelLine({ text, roles }: { text: string; roles: ReadonlyMap<string, GuildRole> }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKUP)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const [whole, roleId, animated, name, emojiId, bold] = match;
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
    } else {
      parts.push(<strong key={key}>{bold ?? whole}</strong>);
    }
    last = match.index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/**
 * A list's panel as members will see it, laid out by core's buildReactionListPanel: the same
 * function the bot posts with (20 reactions to a message; a longer list continues in another).
 */
export function ReactionPanelPreview({
  list,
  title,
  options,
  roles,
}: {
  list: ReactionList;
  title: string;
  options: readonly RoleMenuOption[];
  roles: ReadonlyMap<string, GuildRole>;
}) {
  const messages = buildReactionListPanel(list, options);
  const headingId = `${list}-preview-title`;
  return (
    <section className="reaction-preview" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Panel preview
        {messages.length > 1 ? <span className="muted small"> · {messages.length} messages</span> : null}
      </h3>
      {messages.length === 0 ? (
        <p className="muted small preview-empty">Rows with an emoji show here.</p>
      ) : (
        <ol className="reaction-preview-messages">
          {messages.map((message, index) => (
            <li
              key={message.rows[0]?.line ?? index}
              className="discord-message"
              aria-label={`${title} panel message ${index + 1}`}
            >
              {message.embeds.map((embed) => (
                <div
                  key={embed.title}
                  className="discord-embed"
                  style={{ borderLeftColor: hexOf(embed.color) }}
                >
                  <p className="discord-embed-title">{embed.title}</p>
                  <ul className="discord-embed-lines">
                    {embed.description.split('\n').map((line, lineIndex) => (
                      // Lines can repeat (an old row twice): their place tells them apart.
                      <li key={lineIndex}>
                        <PanelLine text={line} roles={roles} />
                      </li>
                    ))}
                  </ul>
                  <p className="discord-embed-footer">{embed.footer.text}</p>
                </div>
              ))}
              <ul className="discord-reactions" aria-label="Reactions">
                {message.rows.map((row, rowIndex) => (
                  <li
                    // An unsaved list may hold an emoji twice: the place tells them apart.
                    key={rowIndex}
                    className="discord-reaction"
                    title={row.emoji.id ? `:${row.emoji.name}:` : row.emoji.name}
                  >
                    <EmojiView emoji={row.emoji} />
                    <span className="discord-reaction-count">1</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      <p className="muted small">
        Preview only: the bot posts these messages and adds each reaction; members react to get the role.
      </p>
    </section>
  );
}
