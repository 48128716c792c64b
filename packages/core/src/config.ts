/** Limits on the raw guild config and the one key of it the product reads (`color_roles_mode`). */
import { ColorRolesMode } from '@spacecadet/contract';

/** A guild config's `data`, serialized as JSON, may be at most 64 KiB. */
export const CONFIG_MAX_BYTES = 64 * 1024;

const COLOR_ROLES_MODE_KEY = 'color_roles_mode';

/** Size of a config object as stored (UTF-8 bytes of its JSON). */
export function configByteLength(data: unknown): number {
  return new TextEncoder().encode(JSON.stringify(data) ?? '').byteLength;
}

/** The panel mode stored in a guild config; anything but a known mode means basic. */
export function colorRolesModeOf(data: unknown): ColorRolesMode {
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const mode = ColorRolesMode.safeParse((data as Record<string, unknown>)[COLOR_ROLES_MODE_KEY]);
    if (mode.success) return mode.data;
  }
  return 'basic';
}
