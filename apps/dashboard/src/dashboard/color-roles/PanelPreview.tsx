import type { ColorRolesMode } from '@spacecadet/contract';
import {
  buildColorPanel,
  buildColorPanelEmbed,
  COLOR_PANEL_MAX_COLORS,
  type PanelColor,
} from '@spacecadet/core';
import { Fragment } from 'react';

function hexOf(color: number): string {
  return `#${color.toString(16).padStart(6, '0')}`;
}

/** "Indigo/Violet" may wrap after the slash rather than mid-word. */
function breakAfterSlashes(label: string) {
  return label.split('/').map((part, index) =>
    index === 0 ? (
      part
    ) : (
      <Fragment key={index}>
        /<wbr />
        {part}
      </Fragment>
    ),
  );
}

/**
 * The embed preview, laid out by core's buildColorPanel: the same function the bot posts with.
 * Its rows end with the Remove color button (kind `remove`), drawn like the others.
 */
export function PanelPreview({ colors, mode }: { colors: PanelColor[]; mode: ColorRolesMode }) {
  const panel = buildColorPanel(colors, mode);
  const embed = buildColorPanelEmbed(mode);
  return (
    <section className="card preview-card" aria-labelledby="preview-title">
      <h2 id="preview-title">Panel preview</h2>
      <div className="discord-message">
        <div className="discord-embed" style={{ borderLeftColor: hexOf(embed.color ?? 0xff69b4) }}>
          <p className="discord-embed-title">{embed.title}</p>
          {embed.description ? <p className="discord-embed-text">{embed.description}</p> : null}
          {embed.footer ? <p className="discord-embed-footer">{embed.footer.text}</p> : null}
        </div>
        {panel.buttons.length === 0 ? (
          <p className="muted preview-empty">No colors configured yet</p>
        ) : (
          <section className="discord-rows" aria-label="Panel buttons">
            {panel.rows.map((row, index) => (
              <ul
                key={row.map((button) => button.key).join('|')}
                className="discord-row"
                aria-label={`Row ${index + 1}`}
              >
                {row.map((button) => (
                  <li
                    key={button.key}
                    className="discord-button"
                    data-kind={button.kind}
                    title={button.label}
                  >
                    {/* The square Discord shows on the posted button (a button cannot take the hex). */}
                    <span className="discord-button-emoji" aria-hidden="true">
                      {button.emoji}
                    </span>
                    <span className="discord-button-label">{breakAfterSlashes(button.label)}</span>
                  </li>
                ))}
              </ul>
            ))}
          </section>
        )}
      </div>
      {panel.truncated ? (
        <p className="muted small">
          Only the first {COLOR_PANEL_MAX_COLORS} colors fit on the panel, with the Remove color button.
        </p>
      ) : null}
      <p className="muted small">
        Preview only: the bot posts the real interactive message
        {mode === 'shades' ? ', and a family button opens an ephemeral shade picker for the member' : ''}.
      </p>
    </section>
  );
}
