import { guildOfXpBatch } from '@spacecadet/contract';
import { eq, getTableName, inArray, is, lte, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../client.ts';
import { type GuildDepartureRow, guildDepartures } from '../schema/guild-data.ts';
import { botGuilds } from '../schema/guilds.ts';
import { xpFlushBatches } from '../schema/leveling.ts';
import * as schema from '../schema.ts';
import { inShards, type ShardFilter } from './shard-filter.ts';

/**
 * A server's data as a whole: every table of the schema with a `guild_id` column, read from the
 * drizzle schema itself, so a table added later (by hand or by `pnpm gen feature`) is counted and
 * deleted without editing this file. Three such tables are not "data stored for the server":
 * `bot_guilds` mirrors whether the bot is in it (Discord's fact, kept while it is),
 * `guild_departures` is the purge's own record, deleted last by the deletion itself, and
 * `xp_flush_batches` is the XP flush's record of batches written, which the deletion adds to
 * (`markXpBatchesDropped`) so a batch in flight is not written back; the hourly prune removes it.
 */
export const GUILD_TABLES_KEPT: ReadonlySet<string> = new Set([
  getTableName(botGuilds),
  getTableName(guildDepartures),
  getTableName(xpFlushBatches),
]);

export const GUILD_ID_COLUMN = 'guild_id';

/** Every table of the schema with a guild_id column (the kept ones included). */
export function guildIdTables(): PgTable[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .filter((table) => getTableConfig(table).columns.some((column) => column.name === GUILD_ID_COLUMN));
}

/**
 * The tables in an order where each comes after the tables it references (foreign keys):
 * inserts go in this order, deletes in the reverse one.
 */
export function parentsFirst(tables: readonly PgTable[]): PgTable[] {
  const byName = new Map(tables.map((table) => [getTableName(table), table]));
  const ordered: PgTable[] = [];
  const placed = new Set<string>();
  const place = (table: PgTable) => {
    const name = getTableName(table);
    if (placed.has(name)) return;
    placed.add(name);
    for (const fk of getTableConfig(table).foreignKeys) {
      const parent = byName.get(getTableName(fk.reference().foreignTable));
      if (parent) place(parent);
    }
    ordered.push(table);
  };
  for (const name of [...byName.keys()].sort()) place(byName.get(name) as PgTable);
  return ordered;
}

/** Every table of the schema with a guild_id column (the kept ones included), by name. */
export function tablesWithGuildId(): string[] {
  return guildIdTables()
    .map((table) => getTableName(table))
    .sort();
}

/** The tables a server's data deletion empties for it, in the order it deletes (children first). */
export function guildDataTables(): string[] {
  return parentsFirst(guildIdTables())
    .map((table) => getTableName(table))
    .filter((name) => !GUILD_TABLES_KEPT.has(name))
    .reverse();
}

/**
 * The tables of `guildDataTables` this database has, in that order: one a deployment never
 * migrated (a server without the color tables) holds nothing of any guild, so counting and
 * deleting skip it rather than fail.
 */
async function presentGuildDataTables(db: Pick<Db, 'execute'>): Promise<string[]> {
  const tables = guildDataTables();
  const present = await db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_name in (${sql.join(
          tables.map((name) => sql`${name}`),
          sql`, `,
        )})`,
  );
  const names = new Set(present.rows.map((row) => row.name));
  return tables.filter((name) => names.has(name));
}

/** Rows per table of the guild's data (every table of `guildDataTables`, zeros included). */
export async function countGuildData(db: Db, guildId: string): Promise<Record<string, number>> {
  const tables = await presentGuildDataTables(db);
  const counts: Record<string, number> = Object.fromEntries(guildDataTables().map((name) => [name, 0]));
  if (tables.length === 0) return counts;
  const parts = tables.map(
    (name) =>
      sql`select ${name} as name, count(*)::int as n from ${sql.identifier(name)} where guild_id = ${guildId}`,
  );
  const result = await db.execute<{ name: string; n: number }>(sql.join(parts, sql` union all `));
  for (const row of result.rows) counts[row.name] = Number(row.n);
  return counts;
}

/**
 * Deletes every row of the guild in every table of `guildDataTables`, in one transaction (all or
 * nothing, so a crash leaves either everything or nothing deleted; run again, it deletes what
 * is left). The setup triggers' NOTIFY fire on commit, so every process's in-memory copy of the
 * guild's setup is dropped. Answers the rows deleted.
 */
export async function deleteGuildRows(db: Db, guildId: string): Promise<number> {
  return db.transaction(async (tx) => {
    let deleted = 0;
    for (const name of await presentGuildDataTables(tx)) {
      const result = await tx.execute(sql`delete from ${sql.identifier(name)} where guild_id = ${guildId}`);
      deleted += result.rowCount ?? 0;
    }
    return deleted;
  });
}

/**
 * Marks XP batches as already applied (the flush's own idempotence record), so a writer that
 * read one of them from Redis before the deletion skips it instead of writing its XP back after.
 */
export async function markXpBatchesDropped(db: Db, batchIds: readonly string[]): Promise<void> {
  if (batchIds.length === 0) return;
  await db
    .insert(xpFlushBatches)
    .values(batchIds.map((batchId) => ({ guildId: guildOfXpBatch(batchId), batchId })))
    .onConflictDoNothing();
}

/** The bot left the guild: keep its data until `purgeAfter`. A second leave keeps the first record. */
export async function recordGuildDeparture(db: Db, guildId: string, purgeAfter: Date): Promise<void> {
  await db.insert(guildDepartures).values({ guildId, purgeAfter }).onConflictDoNothing();
}

/** The bot is back in the guild: its data is no longer due for a purge. True when there was a record. */
export async function clearGuildDepartures(db: Db, guildIds: readonly string[]): Promise<string[]> {
  if (guildIds.length === 0) return [];
  const rows = await db
    .delete(guildDepartures)
    .where(inArray(guildDepartures.guildId, [...guildIds]))
    .returning({ guildId: guildDepartures.guildId });
  return rows.map((row) => row.guildId);
}

export async function guildDeparture(db: Db, guildId: string): Promise<GuildDepartureRow | null> {
  const [row] = await db.select().from(guildDepartures).where(eq(guildDepartures.guildId, guildId));
  return row ?? null;
}

export async function guildDeparturesOf(db: Db, guildIds: readonly string[]): Promise<GuildDepartureRow[]> {
  if (guildIds.length === 0) return [];
  return db
    .select()
    .from(guildDepartures)
    .where(inArray(guildDepartures.guildId, [...guildIds]));
}

/** Every departed guild (the purge's schedule runs for each). */
export async function departedGuildIds(db: Db, shards?: ShardFilter): Promise<string[]> {
  const rows = await db
    .select({ guildId: guildDepartures.guildId })
    .from(guildDepartures)
    .where(inShards(guildDepartures.guildId, shards));
  return rows.map((row) => row.guildId);
}

/** Departed guilds whose retention is over at `now`. */
export async function guildsDueForPurge(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .select({ guildId: guildDepartures.guildId })
    .from(guildDepartures)
    .where(lte(guildDepartures.purgeAfter, now));
  return rows.map((row) => row.guildId);
}

export async function deleteGuildDeparture(db: Db, guildId: string): Promise<void> {
  await db.delete(guildDepartures).where(eq(guildDepartures.guildId, guildId));
}

/** Whether the bot is in the guild now (`bot_guilds`). */
export async function botIsInGuild(db: Db, guildId: string): Promise<boolean> {
  const [row] = await db
    .select({ guildId: botGuilds.guildId })
    .from(botGuilds)
    .where(eq(botGuilds.guildId, guildId));
  return row !== undefined;
}
