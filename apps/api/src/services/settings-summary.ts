/**
 * A History summary of a settings change, field by field: "Changed the leveling settings: XP per
 * message 15 → 20, level-up message edited". Long texts (`edited`) are only named. The label
 * alone when nothing changed.
 */
export function settingsChangeSummary<T extends object>(
  label: string,
  before: T,
  after: T,
  how: {
    labels: Readonly<Record<keyof T, string>>;
    edited: ReadonlySet<keyof T>;
    value: (field: keyof T, value: unknown) => string;
  },
): string {
  const parts: string[] = [];
  for (const field of Object.keys(how.labels) as (keyof T)[]) {
    if (JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
    parts.push(
      how.edited.has(field)
        ? `${how.labels[field]} edited`
        : `${how.labels[field]} ${how.value(field, before[field])} → ${how.value(field, after[field])}`,
    );
  }
  return parts.length === 0 ? label : `${label}: ${parts.join(', ')}`;
}
