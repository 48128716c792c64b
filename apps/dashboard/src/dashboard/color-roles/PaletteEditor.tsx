import { type ColorRolesMode, MAX_COLOR_SHADES, MAX_PALETTE_COLORS } from '@spacecadet/contract';
import { useConfirm } from '../shared/ConfirmDialog.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import {
  type DraftColor,
  type DraftShade,
  NO_ROLE_YET,
  newDraftKey,
  PALETTE_FULL,
  PALETTE_SAVED,
  paletteRoleBadge,
  pickerHex,
  REMOVE_COLOR_UNDO,
  removeColorConfirm,
} from './color-roles-model.ts';

const NEW_COLOR_HEX = '#5C6BC0';

/**
 * The palette, editable: add, rename, recolor (picker or hex), remove (asked first), move up or
 * down; in shades mode each colour's shades too. Nothing is stored until Save, which sends the
 * whole palette in one write; the preview follows the draft meanwhile (the parent holds it).
 */
export function PaletteEditor({
  draft,
  mode,
  changed,
  saving,
  saved,
  error,
  onChange,
  onSave,
  onDiscard,
  onDismissError,
}: {
  draft: DraftColor[];
  mode: ColorRolesMode;
  /** The draft differs from what is stored. */
  changed: boolean;
  saving: boolean;
  saved: boolean;
  /** The server's refusal (it names the colour), or null. */
  error: string | null;
  onChange: (draft: DraftColor[]) => void;
  onSave: () => void;
  onDiscard: () => void;
  onDismissError: () => void;
}) {
  const update = (index: number, change: Partial<DraftColor>) =>
    onChange(draft.map((color, i) => (i === index ? { ...color, ...change } : color)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...draft];
    const [color] = next.splice(index, 1);
    if (!color) return;
    next.splice(index + by, 0, color);
    onChange(next);
  };
  const confirmation = useConfirm();
  const remove = (index: number) => {
    const color = draft[index];
    if (!color) return;
    const hasRole = Boolean(color.stored?.role_id || color.stored?.shades.some((shade) => shade.role_id));
    confirmation.ask({
      title: 'Remove this color?',
      question: removeColorConfirm(color.name, hasRole),
      confirmLabel: 'Remove',
      undoNote: REMOVE_COLOR_UNDO,
      onConfirm: () => onChange(draft.filter((_, i) => i !== index)),
    });
  };
  const add = () =>
    onChange([
      ...draft,
      { key: newDraftKey(), name: `Color ${draft.length + 1}`, hex: NEW_COLOR_HEX, shades: [] },
    ]);
  const full = draft.length >= MAX_PALETTE_COLORS;

  return (
    <section className="card palette-card" aria-labelledby="palette-title">
      {confirmation.dialog}
      <div className="palette-head">
        <h2 id="palette-title">Palette</h2>
        <span className="muted small">
          {draft.length} of {MAX_PALETTE_COLORS} colors
        </span>
      </div>
      {draft.length === 0 ? (
        <p className="muted">
          No colors found for this server. Add one, or let Generate Roles add the default palette.
        </p>
      ) : null}
      <ol className="palette-colors">
        {draft.map((color, index) => {
          const label = color.name.trim() || `color ${index + 1}`;
          const badge = color.stored ? paletteRoleBadge(color.stored, mode) : { text: 'New', missing: true };
          return (
            <li key={color.key} className="palette-color">
              <div className="palette-color-row">
                <ColorFields
                  id={`color-${color.key}`}
                  what={`Color ${index + 1}`}
                  name={color.name}
                  hex={color.hex}
                  onName={(name) => update(index, { name })}
                  onHex={(hex) => update(index, { hex })}
                />
                {badge ? (
                  <span
                    className={badge.missing ? 'badge badge-soon' : 'badge badge-done'}
                    title={badge.text === NO_ROLE_YET ? 'Generate Roles creates it' : undefined}
                  >
                    {badge.text}
                  </span>
                ) : null}
              </div>
              <div className="palette-color-foot">
                {mode !== 'shades' && color.shades.length > 0 ? (
                  <ul className="shade-swatches" aria-label={`${label} shades`}>
                    {color.shades.map((shade) => (
                      <li key={shade.key}>
                        <span
                          className="swatch swatch-sm"
                          style={{ background: shade.hex }}
                          title={`${shade.name} ${shade.hex}`}
                          aria-hidden="true"
                        />
                        <span className="sr-only">
                          {shade.name} {shade.hex}
                        </span>
                      </li>
                    ))}
                  </ul>
                ) : null}
                <div className="palette-color-buttons">
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={`Move ${label} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={`Move ${label} down`}
                    disabled={index === draft.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm palette-remove"
                    aria-label={`Remove ${label}`}
                    onClick={() => remove(index)}
                  >
                    Remove
                  </button>
                </div>
              </div>
              {mode === 'shades' ? (
                <ShadesEditor
                  color={color}
                  label={label}
                  colorIndex={index}
                  onChange={(shades) => update(index, { shades })}
                />
              ) : null}
            </li>
          );
        })}
      </ol>
      <div className="palette-footer">
        <button type="button" className="btn btn-secondary btn-sm" disabled={full} onClick={add}>
          Add color
        </button>
        {full ? <span className="muted small">{PALETTE_FULL}</span> : null}
      </div>
      <div className="palette-save">
        <button type="button" className="btn btn-primary" disabled={!changed || saving} onClick={onSave}>
          {saving ? 'Saving…' : 'Save palette'}
        </button>
        <button type="button" className="btn btn-ghost" disabled={!changed || saving} onClick={onDiscard}>
          Discard changes
        </button>
        {changed && !saving ? <span className="muted small">Unsaved changes</span> : null}
      </div>
      {saved && !changed ? (
        <p className="alert alert-success" role="status">
          {PALETTE_SAVED}
        </p>
      ) : null}
      <ErrorBox onDismiss={onDismissError}>{error}</ErrorBox>
    </section>
  );
}

/** A name field and a colour (picker plus hex text), labelled `what` for screen readers. */
function ColorFields({
  id,
  what,
  name,
  hex,
  onName,
  onHex,
  small,
}: {
  id: string;
  what: string;
  name: string;
  hex: string;
  onName: (name: string) => void;
  onHex: (hex: string) => void;
  small?: boolean;
}) {
  return (
    <div className={small ? 'palette-fields palette-fields-sm' : 'palette-fields'}>
      <input
        type="color"
        className="palette-picker"
        aria-label={`${what} color`}
        value={pickerHex(hex)}
        onChange={(event) => onHex(event.target.value.toUpperCase())}
      />
      <label className="sr-only" htmlFor={`${id}-name`}>
        {what} name
      </label>
      <input
        id={`${id}-name`}
        className="input palette-name"
        value={name}
        maxLength={120}
        onChange={(event) => onName(event.target.value)}
      />
      <label className="sr-only" htmlFor={`${id}-hex`}>
        {what} hex
      </label>
      <input
        id={`${id}-hex`}
        className="input palette-hex"
        value={hex}
        maxLength={9}
        spellCheck={false}
        onChange={(event) => onHex(event.target.value)}
      />
    </div>
  );
}

function ShadesEditor({
  color,
  label,
  colorIndex,
  onChange,
}: {
  color: DraftColor;
  label: string;
  colorIndex: number;
  onChange: (shades: DraftShade[]) => void;
}) {
  const confirmation = useConfirm();
  const update = (index: number, change: Partial<DraftShade>) =>
    onChange(color.shades.map((shade, i) => (i === index ? { ...shade, ...change } : shade)));
  const remove = (index: number) => {
    const shade = color.shades[index];
    if (!shade) return;
    const stored = color.stored?.shades.find((candidate) => candidate.shade_id === shade.shade_id);
    confirmation.ask({
      title: 'Remove this shade?',
      question: removeColorConfirm(shade.name, Boolean(stored?.role_id)),
      confirmLabel: 'Remove',
      undoNote: REMOVE_COLOR_UNDO,
      onConfirm: () => onChange(color.shades.filter((_, i) => i !== index)),
    });
  };
  const add = () =>
    onChange([
      ...color.shades,
      {
        key: newDraftKey(),
        name: `${color.name.trim() || 'New'} ${color.shades.length + 1}`,
        hex: color.hex,
      },
    ]);
  return (
    <div className="palette-shades">
      {confirmation.dialog}
      <ul aria-label={`${label} shades`}>
        {color.shades.map((shade, index) => (
          <li key={shade.key} className="palette-shade">
            <ColorFields
              id={`shade-${shade.key}`}
              what={`Color ${colorIndex + 1} shade ${index + 1}`}
              name={shade.name}
              hex={shade.hex}
              onName={(name) => update(index, { name })}
              onHex={(hex) => update(index, { hex })}
              small
            />
            <button
              type="button"
              className="btn btn-ghost btn-sm palette-remove"
              aria-label={`Remove shade ${shade.name.trim() || index + 1} of ${label}`}
              onClick={() => remove(index)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={color.shades.length >= MAX_COLOR_SHADES}
        onClick={add}
      >
        Add shade to {label}
      </button>
    </div>
  );
}
