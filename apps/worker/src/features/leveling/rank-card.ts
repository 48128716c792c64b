import type { Image } from '@napi-rs/canvas';
import { decodeImage } from '@spacecadet/rank-card';
import { fetchAvatarPng } from '../../discord-rest.ts';

/**
 * The `/rank` card's worker side: the attachment's name and the member's avatar from Discord's
 * CDN. The card itself is drawn by `@spacecadet/rank-card` (the same renderer the dashboard's
 * preview goes through).
 */

export const RANK_CARD_FILENAME = 'rank-card.png';

/** The member's avatar picture (server avatar first) from Discord's CDN, decoded, or null (none, slow, broken). */
export async function loadAvatar(
  cdnBase: string,
  who: { userId: string; guildId: string; userAvatar: string | null; memberAvatar: string | null },
  timeoutMs: number,
): Promise<Image | null> {
  const bytes = await fetchAvatarPng(cdnBase, who, timeoutMs);
  if (!bytes) return null;
  return decodeImage(bytes);
}
