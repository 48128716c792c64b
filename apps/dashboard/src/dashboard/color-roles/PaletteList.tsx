import type { ColorGroup, ColorRolesMode } from '@spacecadet/contract';
import { paletteRoleBadge } from './color-roles-model.ts';

/**
 * The palette as stored, by group (spec: each group's name, a disabled Expanded checkbox, its
 * color count, and each color's swatch, name and shade swatches). Edit palette opens the editor.
 */
export function PaletteList({
  groups,
  mode,
  onEdit,
  savedNote,
}: {
  groups: ColorGroup[];
  mode: ColorRolesMode;
  onEdit: () => void;
  /** Shown after a save, until the palette changes again. */
  savedNote: string | null;
}) {
  const total = groups.reduce((sum, group) => sum + group.colors.length, 0);
  return (
    <section className="card palette-card" aria-labelledby="palette-title">
      <div className="palette-head">
        <h2 id="palette-title">Palette</h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onEdit}>
          Edit palette
        </button>
      </div>
      {savedNote ? <output className="save-note">{savedNote}</output> : null}
      {total === 0 ? <p className="muted">No colors found for this server</p> : null}
      {groups.map((group) => (
        <section key={group.group_id} className="palette-group" aria-label={group.group_name}>
          <div className="palette-group-head">
            <h3>{group.group_name}</h3>
            <label className="expanded-toggle">
              <input type="checkbox" checked disabled />
              Expanded <span className="muted small">(always included)</span>
            </label>
            <span className="muted small">
              {group.colors.length} {group.colors.length === 1 ? 'color' : 'colors'}
            </span>
          </div>
          <ul className="palette-list-colors">
            {group.colors.map((color) => {
              const badge = paletteRoleBadge(color, mode);
              return (
                <li key={color.color_id} className="palette-list-color">
                  <span className="swatch" style={{ background: color.hex_code }} aria-hidden="true" />
                  <span className="palette-color-name">
                    {color.color_name}
                    <span className="muted small"> {color.hex_code}</span>
                    {badge ? (
                      <span className={badge.missing ? 'badge badge-soon' : 'badge badge-done'}>
                        {badge.text}
                      </span>
                    ) : null}
                  </span>
                  {color.shades.length > 0 ? (
                    <ul className="shade-swatches" aria-label={`${color.color_name} shades`}>
                      {color.shades.map((shade) => (
                        <li key={shade.shade_id}>
                          <span
                            className="swatch swatch-sm"
                            style={{ background: shade.hex_code }}
                            title={`${shade.shade_name} ${shade.hex_code}`}
                            aria-hidden="true"
                          />
                          <span className="sr-only">
                            {shade.shade_name} {shade.hex_code}
                          </span>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </section>
  );
}
