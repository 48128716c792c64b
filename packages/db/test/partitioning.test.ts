import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/client.ts';
import { loadLeaderboard, loadMemberRank, loadPeriodLeaderboard } from '../src/queries/leveling.ts';
import { writeXpBatch } from '../src/queries/member-xp.ts';
import * as schema from '../src/schema.ts';
import {
  levelingSeasonMembers,
  levelingSeasons,
  memberDailyXp,
  memberXp,
  XP_PARTITION_SCHEMA,
  XP_PARTITIONED_TABLES,
  XP_PARTITIONS,
} from '../src/schema.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

/**
 * member_xp and member_daily_xp are hash-partitioned by guild (migration 0026). Drizzle cannot
 * declare it, so the schema's constants are checked against the live database here, and the
 * per-server queries are checked to read one partition (partition pruning): a query that
 * scans every partition would cost N times what it did.
 */
const GUILD = '300000000000000041';
const NOW = new Date('2026-11-29T18:00:00Z');
let testDb: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  testDb = await createTestDatabase('db_partitioning');
  pool = new pg.Pool({ connectionString: testDb.url, max: 2 });
  // Members of many guilds, so each partition holds rows and none is empty by chance.
  const guilds = Array.from({ length: 64 }, (_, i) => `3000000000000${String(1000 + i)}`);
  await testDb.db.insert(memberXp).values(
    [GUILD, ...guilds].flatMap((guildId) =>
      ['400000000000000001', '400000000000000002', '400000000000000003'].map((userId, i) => ({
        guildId,
        userId,
        xp: 100 * (i + 1),
        username: `m${i}`,
      })),
    ),
  );
  await testDb.db.insert(memberDailyXp).values(
    [GUILD, ...guilds].map((guildId) => ({
      guildId,
      userId: '400000000000000001',
      day: '2026-11-28',
      xp: 40,
    })),
  );
  await pool.query('ANALYZE member_xp; ANALYZE member_daily_xp');
});
afterAll(async () => {
  await pool?.end();
  await testDb?.close();
});

describe('the live database matches the schema constants', () => {
  it.each(XP_PARTITIONED_TABLES)('%s is hashed by guild_id into XP_PARTITIONS partitions', async (table) => {
    const strategy = await pool.query<{ strategy: string; key: string }>(
      `SELECT p.partstrat AS strategy, a.attname AS key
         FROM pg_partitioned_table p
         JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
        WHERE p.partrelid = $1::regclass`,
      [`public.${table}`],
    );
    expect(strategy.rows).toEqual([{ strategy: 'h', key: 'guild_id' }]);
    const parts = await pool.query<{ schema: string; name: string; bound: string }>(
      `SELECT n.nspname AS schema, c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
      [`public.${table}`],
    );
    expect(parts.rows).toEqual(
      Array.from({ length: XP_PARTITIONS }, (_, i) => ({
        schema: XP_PARTITION_SCHEMA,
        name: `${table}_p${String(i).padStart(2, '0')}`,
        bound: `FOR VALUES WITH (modulus ${XP_PARTITIONS}, remainder ${i})`,
      })),
    );
  });

  it('every partition holds the parent indexes (the primary key and the leaderboard index)', async () => {
    const indexes = await pool.query<{ name: string; n: number }>(
      `SELECT parent.relname AS name, count(*)::int AS n
         FROM pg_inherits i JOIN pg_class parent ON parent.oid = i.inhparent
        WHERE parent.relname IN ('member_xp_pk', 'member_xp_guild_xp_idx', 'member_daily_xp_pk', 'member_daily_xp_guild_day_idx')
        GROUP BY parent.relname ORDER BY 1`,
    );
    expect(indexes.rows).toEqual(
      ['member_daily_xp_guild_day_idx', 'member_daily_xp_pk', 'member_xp_guild_xp_idx', 'member_xp_pk'].map(
        (name) => ({ name, n: XP_PARTITIONS }),
      ),
    );
  });
});

interface PlanNode {
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function relationsOf(node: PlanNode, into: string[] = []): string[] {
  if (node['Relation Name']) into.push(node['Relation Name']);
  for (const child of node.Plans ?? []) relationsOf(child, into);
  return into;
}

/** The partitions of member_xp and member_daily_xp that each statement's plan reads. */
async function partitionsRead(statements: Array<{ query: string; params: unknown[] }>) {
  const reads: Array<{ query: string; partitions: string[] }> = [];
  for (const { query, params } of statements) {
    if (!/^\s*(select|with)\b/i.test(query) || !/member_(daily_)?xp/.test(query)) continue;
    const result = await pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (FORMAT JSON) ${query}`,
      params,
    );
    const plan = result.rows[0]?.['QUERY PLAN'][0]?.Plan as PlanNode;
    const partitions = [
      ...new Set(relationsOf(plan).filter((name) => /^member_(daily_)?xp_p\d+$/.test(name))),
    ];
    reads.push({ query: query.replace(/\s+/g, ' ').slice(0, 80), partitions });
  }
  return reads;
}

/** A Db that records every statement it sends, with its parameters. */
function recordingDb(): { db: Db; statements: Array<{ query: string; params: unknown[] }> } {
  const statements: Array<{ query: string; params: unknown[] }> = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (query, params) => statements.push({ query, params }) },
  });
  return { db, statements };
}

describe('per-server XP queries read one partition (partition pruning)', () => {
  it('the leaderboard page, its count, a member rank, the week board and the all-time board', async () => {
    const { db, statements } = recordingDb();
    await testDb.db.insert(levelingSeasons).values({ guildId: GUILD, name: 'One', endedAt: NOW });
    const [season] = await testDb.db.select({ id: levelingSeasons.id }).from(levelingSeasons);
    await testDb.db.insert(levelingSeasonMembers).values({
      seasonId: season?.id as number,
      guildId: GUILD,
      userId: '400000000000000001',
      xp: 5,
      level: 0,
    });
    const board = await loadLeaderboard(db, GUILD, { limit: 10, offset: 0 });
    expect(board.total).toBe(3);
    expect((await loadMemberRank(db, GUILD, '400000000000000002'))?.rank).toBe(2);
    expect((await loadPeriodLeaderboard(db, GUILD, 'week', { limit: 10, offset: 0 }, NOW)).total).toBe(1);
    expect((await loadPeriodLeaderboard(db, GUILD, 'all', { limit: 10, offset: 0 }, NOW)).total).toBe(3);
    const reads = await partitionsRead(statements);
    // The page and its count, the member and those ahead, the week board, the all-time board.
    expect(reads.length).toBeGreaterThanOrEqual(6);
    for (const read of reads) {
      // One partition of each table a statement reads, whichever tables it joins.
      const tables = new Set(read.partitions.map((name) => name.replace(/_p\d+$/, '')));
      expect({ query: read.query, partitions: read.partitions.length }).toEqual({
        query: read.query,
        partitions: tables.size,
      });
      expect(read.partitions.length).toBeGreaterThan(0);
    }
  });

  it("a flush's rows land in the guild's partition, and a read of the guild finds them there", async () => {
    const written = await writeXpBatch(testDb.db, {
      batchId: `${GUILD}.partitioned`,
      guildId: GUILD,
      day: '2026-11-29',
      members: [{ userId: '400000000000000009', xp: 25, messages: 1, username: 'nia', avatar: null }],
      levelUpLeaseMs: 1000,
    });
    expect(written.applied).toBe(true);
    // tableoid names the partition a row is stored in: the guild's rows are all in one.
    const where = await pool.query<{ table: string; n: number }>(
      `SELECT tableoid::regclass::text AS table, count(*)::int AS n FROM member_xp WHERE guild_id = $1 GROUP BY 1`,
      [GUILD],
    );
    expect(where.rows).toHaveLength(1);
    expect(where.rows[0]?.n).toBe(4);
    const daily = await pool.query<{ table: string }>(
      `SELECT DISTINCT tableoid::regclass::text AS table FROM member_daily_xp WHERE guild_id = $1`,
      [GUILD],
    );
    expect(daily.rows).toHaveLength(1);
    // The batch record is keyed by the guild.
    const batch = await pool.query(`SELECT guild_id, batch_id FROM xp_flush_batches WHERE guild_id = $1`, [
      GUILD,
    ]);
    expect(batch.rows).toEqual([{ guild_id: GUILD, batch_id: `${GUILD}.partitioned` }]);
  });

  it("the flush's level update reads one partition per member it joins (run-time pruning)", async () => {
    const { db, statements } = recordingDb();
    const written = await writeXpBatch(db, {
      batchId: `${GUILD}.levels`,
      guildId: GUILD,
      day: '2026-11-29',
      // Enough XP to cross levels, so the flush records the new level with its join.
      members: [{ userId: '400000000000000001', xp: 50_000, messages: 1, username: 'ada', avatar: null }],
      levelUpLeaseMs: 1000,
    });
    expect(written.levelUps.length).toBeGreaterThan(0);
    const update = statements.find((s) => /^\s*update member_xp m set level/.test(s.query));
    expect(update).toBeDefined();
    // The statement joins member_xp with the members' (guild, user) list. With production-size
    // partitions the planner picks a nested loop over the primary keys, and Postgres prunes the
    // partitions for each member at run time (seen with 500,000 rows); on this small test table
    // it would rather read every partition whole, so the other plans are turned off here, in a
    // rolled-back transaction, to look at the production one.
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        'SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off; SET LOCAL enable_seqscan = off',
      );
      const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${update?.query}`,
        update?.params,
      );
      const executed: string[] = [];
      const walk = (node: PlanNode & { 'Actual Loops'?: number }) => {
        const name = node['Relation Name'];
        if (name && /^member_xp_p\d+$/.test(name) && (node['Actual Loops'] ?? 0) > 0) executed.push(name);
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(result.rows[0]?.['QUERY PLAN'][0]?.Plan as PlanNode);
      expect(executed).toHaveLength(1);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
