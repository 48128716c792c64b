import { ROLE_MENU_DESCRIPTION_MAX, ROLE_MENU_TITLE_MAX } from '@spacecadet/contract';
import { ROLE_MENU_COLOR } from '@spacecadet/core';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import { hexOf } from '../shared/DiscordMarkup.tsx';
import type { FieldWithProblem } from './MenuPickFields.tsx';
import { type MenuDraft, normalizeHex } from './role-menus-form.ts';

/** The menu's message: its title, description, embed color and channel, each with its refusal under it. */
export function MenuMessageFields({
  guildId,
  botInGuild,
  draft,
  field,
  update,
}: {
  guildId: string;
  botInGuild: boolean;
  draft: MenuDraft;
  field: FieldWithProblem;
  update: (change: Partial<MenuDraft>) => void;
}) {
  return (
    <section className="card menu-fields" aria-labelledby="menu-message-title">
      <h2 id="menu-message-title">Message</h2>
      <div className="field">
        <label htmlFor="menu-title">Title</label>
        {field('title', (invalid, describedBy) => (
          <input
            id="menu-title"
            className="input"
            value={draft.title}
            maxLength={ROLE_MENU_TITLE_MAX}
            placeholder="Pick your roles"
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(event) => update({ title: event.target.value })}
          />
        ))}
      </div>
      <div className="field">
        <label htmlFor="menu-description">Description</label>
        {field('description', (invalid, describedBy) => (
          <textarea
            id="menu-description"
            className="textarea"
            rows={4}
            value={draft.description}
            maxLength={ROLE_MENU_DESCRIPTION_MAX}
            placeholder="Optional. Markdown works: **bold**, *italic*, <@&role id>."
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy ?? 'menu-description-hint'}
            onChange={(event) => update({ description: event.target.value })}
          />
        ))}
        <p id="menu-description-hint" className="muted small">
          Shown in the embed above the options, with Discord's Markdown.
        </p>
      </div>
      <div className="field">
        <label htmlFor="menu-color">
          Color <span className="muted small">(optional)</span>
        </label>
        <div className="color-inputs">
          <input
            type="color"
            className="color-swatch-input"
            aria-label="Pick the embed color"
            value={(normalizeHex(draft.color) ?? hexOf(ROLE_MENU_COLOR)).toLowerCase()}
            onChange={(event) => update({ color: event.target.value.toUpperCase() })}
          />
          {field('color', (invalid, describedBy) => (
            <input
              id="menu-color"
              className="input color-hex-input"
              value={draft.color}
              placeholder={`${hexOf(ROLE_MENU_COLOR).toUpperCase()} (default)`}
              aria-invalid={invalid || undefined}
              aria-describedby={describedBy}
              spellCheck={false}
              onChange={(event) => update({ color: event.target.value })}
            />
          ))}
          {draft.color.trim() !== '' ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => update({ color: '' })}>
              Use default
            </button>
          ) : null}
        </div>
      </div>
      {field('channel_id', (invalid) => (
        <ChannelPicker
          id="menu-channel"
          label="Channel"
          guildId={guildId}
          botInGuild={botInGuild}
          value={draft.channel_id}
          invalid={invalid}
          onChange={(value) => update({ channel_id: value })}
        />
      ))}
    </section>
  );
}
