/** Limits on the raw guild config and channel ids (spec section 5, design section 4). */

/** A guild config's `data`, serialized as JSON, may be at most 64 KiB. */
export const CONFIG_MAX_BYTES = 64 * 1024;

/** Discord channel ids as the dashboard accepts them: 5 to 20 digits. */
export const CHANNEL_ID_PATTERN = /^\d{5,20}$/;

/** Discord snowflakes are 17-20 digit strings. */
export const SNOWFLAKE_PATTERN = /^\d{17,20}$/;

export const COLOR_ROLES_MODE_KEY = 'color_roles_mode';

export function isChannelId(value: unknown): value is string {
  return typeof value === 'string' && CHANNEL_ID_PATTERN.test(value);
}

/** Size of a config object as stored (UTF-8 bytes of its JSON). */
export function configByteLength(data: unknown): number {
  return new TextEncoder().encode(JSON.stringify(data) ?? '').byteLength;
}

/** The panel mode stored in a guild config; anything but `shades` means basic. */
export function colorRolesModeOf(data: unknown): 'basic' | 'shades' {
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const mode = (data as Record<string, unknown>)[COLOR_ROLES_MODE_KEY];
    if (mode === 'shades') return 'shades';
  }
  return 'basic';
}
