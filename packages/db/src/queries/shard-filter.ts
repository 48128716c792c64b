import { type SQL, sql } from 'drizzle-orm';

/**
 * Some gateway shards of `count`: a worker process reads the guilds of the shards it holds only
 * (the schedules it keeps are those of its shards' job queues). Discord's formula,
 * `(guild_id >> 22) % count`, as `shardOfGuild` in the contract.
 */
export interface ShardFilter {
  ids: readonly number[];
  count: number;
}

/**
 * The condition "the guild in `column` is on one of these shards", or undefined when every guild
 * is wanted (no filter, or one shard in all). For Drizzle's `where(and(...))`.
 */
export function inShards(
  column: SQL | SQL.Aliased | object,
  shards: ShardFilter | undefined,
): SQL | undefined {
  if (!shards || shards.count <= 1) return undefined;
  if (shards.ids.length === 0) return sql`false`;
  const ids = sql.join(
    shards.ids.map((id) => sql`${id}`),
    sql`, `,
  );
  return sql`((${column})::bigint >> 22) % ${shards.count} in (${ids})`;
}

/** `inShards` for a hand-written query: ` and <condition>` of the `guild_id` column, or nothing. */
export function andGuildInShards(shards: ShardFilter | undefined): SQL {
  const condition = inShards(sql.identifier('guild_id'), shards);
  return condition ? sql` and ${condition}` : sql``;
}
