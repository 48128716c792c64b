import { eq } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { rankCardBackgrounds } from '../../schema/leveling-seasons.ts';

/** A server's own rank card background: whether it has one. */

export async function hasRankCardBackground(db: Db, guildId: string): Promise<boolean> {
  const [row] = await db
    .select({ guildId: rankCardBackgrounds.guildId })
    .from(rankCardBackgrounds)
    .where(eq(rankCardBackgrounds.guildId, guildId))
    .limit(1);
  return row !== undefined;
}
