import { useEffectsEnabled } from '../lib/preferences.ts';

/** One name, "Effects", on the landing and in the dashboard: no label prop to drift apart. */
export function EffectsToggle() {
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
      Effects {enabled ? 'on' : 'off'}
    </button>
  );
}
