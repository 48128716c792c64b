import { useEffectsEnabled } from '../lib/preferences.ts';

export function EffectsToggle({ label = 'FX' }: { label?: string }) {
  const [enabled, setEnabled] = useEffectsEnabled();
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm fx-toggle"
      aria-pressed={enabled}
      onClick={() => setEnabled(!enabled)}
      title={enabled ? 'Turn background effects off' : 'Turn background effects on'}
    >
      <span className={`fx-dot${enabled ? ' on' : ''}`} aria-hidden="true" />
      {label} {enabled ? 'on' : 'off'}
    </button>
  );
}
