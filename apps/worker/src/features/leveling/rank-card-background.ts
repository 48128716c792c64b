import type { Image } from '@napi-rs/canvas';
import { loadRankCardBackground, rankCardBackgroundStamp } from '@spacecadet/db/queries/leveling';
import { decodeImage } from '@spacecadet/rank-card';
import type { WorkerDeps } from '../../deps.ts';

/**
 * The server's own rank card background, decoded once and kept per guild, keyed by the row's
 * updated_at: each `/rank` reads only the timestamp (an index lookup), and decodes the image
 * again only after the admin changed it. A removed background drops out of the cache.
 */

const MAX_CACHED_GUILDS = 200;
const cache = new Map<string, { updatedAt: number; image: Image | null }>();

/** The guild's decoded background, or null (none, or an image that does not decode). */
export async function rankCardBackground(deps: WorkerDeps, guildId: string): Promise<Image | null> {
  const stamp = await rankCardBackgroundStamp(deps.db, guildId);
  if (!stamp) {
    cache.delete(guildId);
    return null;
  }
  const cached = cache.get(guildId);
  if (cached && cached.updatedAt === stamp.getTime()) return cached.image;
  const row = await loadRankCardBackground(deps.db, guildId);
  if (!row) return null;
  const image = await decodeImage(Buffer.from(row.image, 'base64'));
  // Oldest first out when full (Map keeps insertion order).
  cache.delete(guildId);
  if (cache.size >= MAX_CACHED_GUILDS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(guildId, { updatedAt: row.updatedAt.getTime(), image });
  return image;
}
