import { type ColorGroup, JobResult, type JobStatus } from '@spacecadet/contract';
import type { PanelColor } from '@spacecadet/core';

export const COLOR_RESET_CONFIRM =
  'Reset color roles for this server? This will delete all colors and shades.';
/** After a generate or post job finishes, wait this long before reloading the palette. */
export const RELOAD_AFTER_JOB_MS = 800;
export const JOB_POLL_MS = 500;
export const BLACK_TIP =
  'Pure black (#000000) does not work as a role colour: Discord treats it as "no colour". Use a near-black such as #0A0A0A.';

export const MODE_OPTIONS = [
  { value: 'basic', label: 'Basic Colors' },
  { value: 'shades', label: 'Color Families + Shades' },
] as const;

/** The palette as the shared panel layout takes it (group order, then colour order). */
export function panelColorsOf(groups: readonly ColorGroup[]): PanelColor[] {
  return groups.flatMap((group) =>
    group.colors.map((color) => ({
      name: color.color_name,
      hex: color.hex_code,
      roleId: color.role_id,
      shades: color.shades.map((shade) => ({ name: shade.shade_name, hex: shade.hex_code })),
    })),
  );
}

export function isJobFinished(job: JobStatus | undefined): boolean {
  return job?.state === 'completed' || job?.state === 'failed';
}

/** The job's own result, when it has the shape the worker reports. */
export function jobResultOf(job: JobStatus | undefined): JobResult | null {
  const parsed = JobResult.safeParse(job?.result);
  return parsed.success ? parsed.data : null;
}

export const JOB_LABELS: Record<string, string> = {
  'color-roles.generate': 'Generating roles',
  'color-roles.post-panel': 'Posting the panel',
  'color-roles.reset': 'Resetting color roles',
  'personality-roles.generate': 'Generating roles',
  'personality-roles.post': 'Posting the messages',
  'personality-roles.reset': 'Resetting personality roles',
};

export function isValidChannelId(value: string): boolean {
  return /^\d{5,20}$/.test(value.trim());
}
