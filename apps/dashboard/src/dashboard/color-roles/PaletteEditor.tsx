import { type ColorRolesMode, MAX_PALETTE_COLORS } from '@spacecadet/contract';
import { useConfirm } from '../shared/ConfirmDialog.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import {
  type DraftColor,
  newDraftKey,
  PALETTE_FULL,
  PALETTE_SAVED,
  REMOVE_COLOR_UNDO,
  removeColorConfirm,
} from './color-roles-model.ts';
import { PaletteColorItem } from './PaletteColorItem.tsx';

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
        {draft.map((color, index) => (
          <PaletteColorItem
            key={color.key}
            color={color}
            index={index}
            count={draft.length}
            mode={mode}
            onUpdate={(change) => update(index, change)}
            onMove={(by) => move(index, by)}
            onRemove={() => remove(index)}
          />
        ))}
      </ol>
      <div className="palette-footer">
        <button type="button" className="btn btn-secondary btn-sm" disabled={full} onClick={add}>
          Add color
        </button>
        {full ? <span className="muted small">{PALETTE_FULL}</span> : null}
      </div>
      <PaletteSave changed={changed} saving={saving} saved={saved} onSave={onSave} onDiscard={onDiscard} />
      <ErrorBox onDismiss={onDismissError}>{error}</ErrorBox>
    </section>
  );
}

/** Save palette and Discard changes (while the draft differs), and the Saved note after. */
function PaletteSave({
  changed,
  saving,
  saved,
  onSave,
  onDiscard,
}: {
  changed: boolean;
  saving: boolean;
  saved: boolean;
  onSave: () => void;
  onDiscard: () => void;
}) {
  return (
    <>
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
    </>
  );
}
