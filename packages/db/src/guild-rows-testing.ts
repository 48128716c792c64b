/**
 * Test data for a server's data as a whole: one row of the guild in every table of the schema
 * with a guild_id column (`tablesWithGuildId`), filled from the columns' own types, so a table
 * added later (by hand or by `pnpm gen feature`) gets its row, and the tests of the deletion
 * cover it, without editing a test. Exported as `@spacecadet/db/testing`.
 */
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';
import { GUILD_ID_COLUMN, guildIdTables, parentsFirst, tablesWithGuildId } from './queries/guild-data.ts';

let sequence = 0;

/** A value of the column's type for a seeded row; undefined leaves it to its default. */
function valueFor(column: PgColumn, guildId: string, tag: string): unknown {
  if (column.name === GUILD_ID_COLUMN) return guildId;
  if (!column.notNull || column.hasDefault) return undefined;
  sequence += 1;
  switch (column.dataType) {
    case 'number':
      return sequence;
    case 'bigint':
      return BigInt(sequence);
    case 'boolean':
      return false;
    case 'date':
      return new Date();
    case 'json':
      return column.columnType === 'PgArray' ? [] : {};
    case 'array':
      return [];
    default:
      if (column.columnType === 'PgDateString') return '2026-01-01';
      if (column.columnType === 'PgTimestampString') return new Date().toISOString();
      // Ids of Discord things (text snowflakes) and names alike: digits fit both.
      return `${tag}${String(sequence).padStart(6, '0')}`;
  }
}

/** Inserts one row of `guildId` in every guild_id table (the kept ones too); answers the table names. */
export async function seedEveryGuildTable(db: Db, guildId: string): Promise<string[]> {
  // Parents first; a foreign key column takes the value of the row just seeded in its table.
  const seeded = new Map<string, Record<string, unknown>>();
  for (const table of parentsFirst(guildIdTables())) {
    const row: Record<string, unknown> = {};
    const columns = Object.entries(getTableColumns(table));
    for (const [key, column] of columns) {
      const value = valueFor(column, guildId, '9'.repeat(12));
      if (value !== undefined) row[key] = value;
    }
    for (const fk of getTableConfig(table).foreignKeys) {
      const reference = fk.reference();
      const parent = seeded.get(getTableName(reference.foreignTable));
      reference.columns.forEach((column, i) => {
        const key = columns.find(([, c]) => c === column)?.[0];
        const parentColumn = reference.foreignColumns[i];
        if (key && parent && parentColumn) row[key] = parent[parentColumn.name];
      });
    }
    // A row already there (the guild's bot_guilds row, say) is kept as it is.
    const [inserted] = await db.insert(table).values(row).onConflictDoNothing().returning();
    // Keyed by SQL column name, as foreign keys name them.
    const byColumn: Record<string, unknown> = {};
    for (const [key, column] of columns)
      byColumn[column.name] = ((inserted ?? row) as Record<string, unknown>)[key];
    seeded.set(getTableName(table), byColumn);
  }
  return tablesWithGuildId();
}

/** Rows of `guildId` per guild_id table. */
export async function guildRowCounts(db: Db, guildId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of tablesWithGuildId()) {
    const result = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(name)} where guild_id = ${guildId}`,
    );
    counts[name] = Number(result.rows[0]?.n ?? 0);
  }
  return counts;
}
