import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countGuildData,
  deleteGuildRows,
  GUILD_TABLES_KEPT,
  guildDataTables,
  markXpBatchesDropped,
  tablesWithGuildId,
} from '../src/queries/guild-data.ts';
import { writeXpBatch } from '../src/queries/member-xp.ts';
import {
  createTestDatabase,
  guildRowCounts,
  seedEveryGuildTable,
  type TestDatabase,
} from '../src/testing.ts';

const GUILD = '400000000000000001';
const OTHER = '400000000000000002';
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('db_guild_data');
});
afterAll(async () => {
  await testDb?.close();
});

describe("a server's data: every table with a guild_id column, read from the schema", () => {
  it('finds the feature tables (and a table added later, as it reads the schema itself)', () => {
    const tables = tablesWithGuildId();
    for (const name of [
      'guild_configs',
      'member_xp',
      'guild_history',
      'role_menus',
      'colors',
      'personality_questions',
    ])
      expect(tables).toContain(name);
    // What the deletion empties: everything but what mirrors Discord and the purge's own record.
    expect([...guildDataTables()].sort()).toEqual(tables.filter((name) => !GUILD_TABLES_KEPT.has(name)));
    expect(guildDataTables()).not.toContain('bot_guilds');
  });

  it('counts and deletes one row in every guild_id table, the other guild untouched; twice is the same', async () => {
    const { db } = testDb;
    await seedEveryGuildTable(db, GUILD);
    await seedEveryGuildTable(db, OTHER);
    const seeded = await guildRowCounts(db, GUILD);
    // The seeder reached every table: none is silently skipped.
    for (const [name, n] of Object.entries(seeded)) expect({ name, n }).toEqual({ name, n: 1 });
    const counts = await countGuildData(db, GUILD);
    expect(Object.keys(counts).sort()).toEqual([...guildDataTables()].sort());
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);

    expect(await deleteGuildRows(db, GUILD)).toBe(guildDataTables().length);
    const after = await guildRowCounts(db, GUILD);
    for (const name of tablesWithGuildId()) {
      expect({ name, n: after[name] }).toEqual({ name, n: GUILD_TABLES_KEPT.has(name) ? 1 : 0 });
    }
    expect(Object.values(await guildRowCounts(db, OTHER)).every((n) => n === 1)).toBe(true);
    // Idempotent: a second run deletes nothing more and fails on nothing.
    expect(await deleteGuildRows(db, GUILD)).toBe(0);
  });

  it('an XP batch taken before the deletion is not written back after it', async () => {
    const { db } = testDb;
    const batchId = `${GUILD}.in-flight`;
    await markXpBatchesDropped(db, [batchId]);
    await markXpBatchesDropped(db, [batchId]);
    const member = {
      userId: '400000000000000009',
      xp: 50,
      messages: 1,
      earned: 1,
      username: 'nia',
      avatar: null,
      channelId: null,
    };
    const written = await writeXpBatch(db, {
      batchId,
      guildId: GUILD,
      day: '2026-11-28',
      members: [member],
      levelUpLeaseMs: 1000,
    });
    expect(written.applied).toBe(false);
    expect((await countGuildData(db, GUILD)).member_xp).toBe(0);
  });
});
