import type { GuildRole, ReactionList } from '@spacecadet/contract';
import { buildReactionListPanel, type RoleMenuOption } from '@spacecadet/core';
import { hexOf, PanelLine, PreviewReactions } from '../shared/DiscordMarkup.tsx';

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
                  {embed.footer ? <p className="discord-embed-footer">{embed.footer.text}</p> : null}
                </div>
              ))}
              <PreviewReactions rows={message.rows} />
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
