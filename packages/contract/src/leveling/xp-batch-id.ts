/**
 * An XP batch's id: `<guild id>.<unique part>`. The worker makes it when it takes a guild's
 * buffered XP out of Redis (`takeGuildBatch`), Postgres keeps it in `xp_flush_batches` (keyed by
 * guild first) so the batch is applied once, and the erase and a guild's deletion, which are
 * handed bare batch ids, read the guild back from it. Defined once here, so the three agree.
 */
export function xpBatchId(guildId: string, unique: string): string {
  return `${guildId}.${unique}`;
}

/** The guild of a batch id (`xpBatchId`); an id without a guild part gives the empty string. */
export function guildOfXpBatch(batchId: string): string {
  const dot = batchId.indexOf('.');
  return dot < 0 ? '' : batchId.slice(0, dot);
}
