import type { ColorRolesMode } from '@spacecadet/contract';
import { MAX_COLOR_SHADES } from '@spacecadet/contract';
import { useConfirm } from '../shared/ConfirmDialog.tsx';
import {
  type DraftColor,
  type DraftShade,
  NO_ROLE_YET,
  newDraftKey,
  paletteRoleBadge,
  pickerHex,
  REMOVE_COLOR_UNDO,
  removeColorConfirm,
} from './color-roles-model.ts';

/**
 * One colour of the palette: its name and hex, its role's badge, its shades (as swatches, or
 * editable in shades mode), and its move and remove buttons.
 */
export function PaletteColorItem({
  color,
  index,
  count,
  mode,
  onUpdate,
  onMove,
  onRemove,
}: {
  color: DraftColor;
  index: number;
  /** How many colours the palette has (the last one does not move down). */
  count: number;
  mode: ColorRolesMode;
  onUpdate: (change: Partial<DraftColor>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const label = color.name.trim() || `color ${index + 1}`;
  const badge = color.stored ? paletteRoleBadge(color.stored, mode) : { text: 'New', missing: true };
  return (
    <li className="palette-color">
      <div className="palette-color-row">
        <ColorFields
          id={`color-${color.key}`}
          what={`Color ${index + 1}`}
          name={color.name}
          hex={color.hex}
          onName={(name) => onUpdate({ name })}
          onHex={(hex) => onUpdate({ hex })}
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
            onClick={() => onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={`Move ${label} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm palette-remove"
            aria-label={`Remove ${label}`}
            onClick={onRemove}
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
          onChange={(shades) => onUpdate({ shades })}
        />
      ) : null}
    </li>
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
