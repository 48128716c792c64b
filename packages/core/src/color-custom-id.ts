/**
 * The custom ids of the color panel's buttons: `color:<action>:<name>`. Names are the lookup key
 * (case-insensitive), so the worker needs no extra state to answer a click. Names may contain
 * ':' or '/', which is fine because everything after the second ':' is the name. (A colour
 * literally named "naturals" would collide with the Naturals button; the palette never seeds one.)
 * The "Remove color" button is `color:remove`, with no name: no colour can collide with it.
 */
import { DISCORD_LIMITS } from './discord-components.ts';

/** Every custom id of the color panel and its shade pickers starts with this. */
export const COLOR_CUSTOM_ID_PREFIX = 'color:';
export const NATURALS_CUSTOM_ID = `${COLOR_CUSTOM_ID_PREFIX}family:naturals`;
export const REMOVE_COLOR_CUSTOM_ID = `${COLOR_CUSTOM_ID_PREFIX}remove`;
const COLOR_CUSTOM_ID = new RegExp(`^${COLOR_CUSTOM_ID_PREFIX}(pick|family|shade):(.+)$`, 's');

export type ColorPanelAction =
  | { action: 'pick'; colorName: string }
  | { action: 'family'; colorName: string }
  | { action: 'naturals' }
  | { action: 'shade'; shadeName: string }
  | { action: 'remove' };

/** The custom id of a colour (`pick`), family (`family`) or shade (`shade`) button. */
export function colorCustomId(action: 'pick' | 'family' | 'shade', name: string): string {
  const prefix = `${COLOR_CUSTOM_ID_PREFIX}${action}:`;
  // Discord rejects custom_ids over 100 chars; role names are <= 100 so cut the tail. The worker
  // matches a cut name by prefix (see `colorNameMatches`).
  return prefix + name.slice(0, DISCORD_LIMITS.customIdLength - prefix.length);
}

export function parseColorCustomId(customId: string): ColorPanelAction | null {
  if (customId === REMOVE_COLOR_CUSTOM_ID) return { action: 'remove' };
  const match = COLOR_CUSTOM_ID.exec(customId);
  if (!match) return null;
  const [, action, name] = match;
  if (!name) return null;
  if (action === 'pick') return { action: 'pick', colorName: name };
  if (action === 'shade') return { action: 'shade', shadeName: name };
  if (customId === NATURALS_CUSTOM_ID) return { action: 'naturals' };
  return { action: 'family', colorName: name };
}

/**
 * Whether a stored colour/shade name is the one a customId refers to: case-insensitive, and
 * a customId that was cut at 100 chars matches by prefix.
 */
export function colorNameMatches(storedName: string, idName: string): boolean {
  const stored = storedName.trim().toLowerCase();
  const wanted = idName.trim().toLowerCase();
  if (stored === wanted) return true;
  const longestPrefix = colorCustomId('family', '').length;
  return wanted.length >= DISCORD_LIMITS.customIdLength - longestPrefix && stored.startsWith(wanted);
}
