import type { GuildRole } from '@spacecadet/contract';
import {
  buildRoleMenuMessages,
  ComponentType,
  type DiscordActionRow,
  type DiscordButton,
  type DiscordEmoji,
  type DiscordStringSelect,
  type RoleMenuLayoutInput,
  type RoleMenuMessage,
} from '@spacecadet/core';
import { EmojiView, hexOf, PanelLine, PreviewReactions } from '../shared/DiscordMarkup.tsx';

/**
 * The menu as members will see it, laid out by core's buildRoleMenuMessages: the same function
 * the bot posts with. Buttons in rows of 5, the select menu with its options shown open, or the
 * reactions under each message (20 to a message).
 */
export function RoleMenuPreview({
  menu,
  roles,
}: {
  menu: RoleMenuLayoutInput;
  roles: ReadonlyMap<string, GuildRole>;
}) {
  const messages = buildRoleMenuMessages(menu);
  return (
    <section className="card preview-card role-menu-preview" aria-labelledby="menu-preview-title">
      <h2 id="menu-preview-title">
        Preview
        {messages.length > 1 ? <span className="muted small"> · {messages.length} messages</span> : null}
      </h2>
      {messages.length === 0 ? (
        <p className="muted small preview-empty">
          {menu.style === 'reactions' ? 'Options with an emoji show here.' : 'Options show here.'}
        </p>
      ) : (
        <ol className="reaction-preview-messages">
          {messages.map((message, index) => (
            <li
              // Messages of one menu differ by their place only.
              key={index}
              className="discord-message"
              aria-label={`Menu message ${index + 1}`}
            >
              <MessageView message={message} roles={roles} />
            </li>
          ))}
        </ol>
      )}
      <p className="muted small">
        Preview only: the bot posts {messages.length > 1 ? 'these messages' : 'this message'}
        {menu.style === 'reactions' ? ' and adds each reaction' : ''}; members pick there.
      </p>
    </section>
  );
}

function MessageView({
  message,
  roles,
}: {
  message: RoleMenuMessage;
  roles: ReadonlyMap<string, GuildRole>;
}) {
  return (
    <>
      {message.embeds.map((embed) => (
        <div
          key={embed.title}
          className="discord-embed"
          data-testid="preview-embed"
          style={{ borderLeftColor: hexOf(embed.color) }}
        >
          {embed.title ? <p className="discord-embed-title">{embed.title}</p> : null}
          <ul className="discord-embed-lines">
            {embed.description.split('\n').map((line, lineIndex) => (
              // Lines can repeat: their place tells them apart.
              <li key={lineIndex}>
                <PanelLine text={line} roles={roles} />
              </li>
            ))}
          </ul>
          {embed.footer ? <p className="discord-embed-footer">{embed.footer.text}</p> : null}
        </div>
      ))}
      {message.components.length > 0 ? <PreviewComponents rows={message.components} /> : null}
      {message.rows.length > 0 ? <PreviewReactions rows={message.rows} /> : null}
    </>
  );
}

function ComponentEmoji({ emoji }: { emoji: DiscordEmoji | undefined }) {
  if (!emoji) return null;
  return (
    <span className="discord-button-emoji">
      <EmojiView
        emoji={
          emoji.id === undefined
            ? { id: null, name: emoji.name }
            : { id: emoji.id, name: emoji.name, animated: false }
        }
      />
    </span>
  );
}

/** A message's buttons in their rows and its select menus shown open (the personality preview too). */
export function PreviewComponents({ rows }: { rows: readonly DiscordActionRow[] }) {
  const buttonRows = rows.filter((row) =>
    row.components.every((component) => component.type === ComponentType.Button),
  ) as DiscordActionRow<DiscordButton>[];
  const selects = rows.flatMap((row) =>
    row.components.filter(
      (component): component is DiscordStringSelect => component.type === ComponentType.StringSelect,
    ),
  );
  return (
    <>
      {buttonRows.length > 0 ? (
        <section className="discord-rows" aria-label="Menu buttons">
          {buttonRows.map((row, index) => (
            <ul
              key={row.components[0]?.custom_id ?? index}
              className="discord-row menu-button-row"
              aria-label={`Row ${index + 1}`}
            >
              {row.components.map((button) => (
                <li key={button.custom_id} className="discord-button">
                  <ComponentEmoji emoji={button.emoji} />
                  <span className="discord-button-label">{button.label}</span>
                </li>
              ))}
            </ul>
          ))}
        </section>
      ) : null}
      {selects.map((select) => (
        <div key={select.custom_id} className="discord-select" data-testid="preview-select">
          <div className="discord-select-box">
            <span className="discord-select-placeholder">{select.placeholder}</span>
            <span className="discord-select-chevron" aria-hidden="true">
              ▾
            </span>
          </div>
          <ul className="discord-select-options" aria-label="Select menu options">
            {select.options.map((option) => (
              <li key={option.value} className="discord-select-option">
                <ComponentEmoji emoji={option.emoji} />
                <span className="discord-select-option-text">
                  <span className="discord-select-option-label">{option.label}</span>
                  {option.description ? (
                    <span className="discord-select-option-detail">{option.description}</span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
          <p className="muted small discord-select-note">
            {select.max_values > 1 ? `Members pick up to ${select.max_values}.` : 'Members pick one.'}
          </p>
        </div>
      ))}
    </>
  );
}
