import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseNameOf, dropDatabase, ensureDatabase, withDatabase } from '../src/database.ts';
import { MIGRATIONS_FOLDER, runMigrations } from '../src/migrate.ts';
import { createTestDatabase, testPostgresServerUrl } from '../src/testing.ts';

let serverUrl = '';
const EXPECTED_TABLES = [
  'bot_guilds',
  'color_groups',
  'color_panels',
  'color_removed_roles',
  'color_shades',
  'colors',
  'deployment',
  'guild_configs',
  'guild_departures',
  'guild_history',
  'guild_setup_dismissals',
  'leveling_boosts',
  'leveling_roles',
  'leveling_season_members',
  'leveling_seasons',
  'leveling_settings',
  'member_daily_xp',
  'member_role_picks',
  'member_xp',
  'pending_level_ups',
  'personality_answer_events',
  'personality_cleanup',
  'personality_configs',
  'personality_options',
  'personality_questions',
  'rank_card_backgrounds',
  'role_connections',
  'role_menus',
  'sessions',
  'sign_ins',
  'sticky_roles',
  'temp_roles',
  'welcome_greetings',
  'welcome_settings',
  'xp_flush_batches',
];

const created: string[] = [];
beforeAll(async () => {
  serverUrl = await testPostgresServerUrl();
});
afterAll(async () => {
  for (const name of created) await dropDatabase(serverUrl, name);
});

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function publicTables(url: string): Promise<string[]> {
  const rows = await query<{ table_name: string }>(
    url,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  return rows.map((row) => row.table_name);
}

describe('migrations', () => {
  const freshUrl = () => {
    const name = `db_migrate_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    created.push(name);
    return withDatabase(serverUrl, name);
  };

  it('ensureDatabase creates a missing database once', async () => {
    const url = freshUrl();
    expect(await ensureDatabase(url)).toBe(true);
    expect(await ensureDatabase(url)).toBe(false);
    expect(await publicTables(url)).toEqual([]);
  });

  it('apply to an empty database and create every table', async () => {
    const url = freshUrl();
    await ensureDatabase(url);
    await runMigrations(url);
    expect(await publicTables(url)).toEqual(EXPECTED_TABLES);
  });

  it('are idempotent and safe to run concurrently', async () => {
    const url = freshUrl();
    await ensureDatabase(url);
    await Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)]);
    await runMigrations(url);
    expect(await publicTables(url)).toEqual(EXPECTED_TABLES);
    const applied = await query<{ count: string }>(url, 'SELECT count(*) FROM drizzle.__drizzle_migrations');
    expect(Number(applied[0]?.count)).toBeGreaterThanOrEqual(1);
  });

  it('index the leaderboard by guild and XP descending', async () => {
    const testDb = await createTestDatabase('db_index');
    try {
      const rows = await query<{ indexdef: string }>(
        testDb.url,
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'member_xp_guild_xp_idx'",
      );
      expect(rows[0]?.indexdef).toMatch(/\(guild_id, xp DESC/);
    } finally {
      await testDb.close();
    }
  });

  /** A database with the migrations up to and including `lastTag` applied, then `seed` run. */
  async function databaseAt(lastTag: string, seed: (client: pg.Client) => Promise<void>): Promise<string> {
    const url = freshUrl();
    await ensureDatabase(url);
    const folder = await mkdtemp(join(tmpdir(), 'db-migrations-'));
    try {
      await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
      const journalPath = join(folder, 'meta', '_journal.json');
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
      const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
      expect(last).toBeGreaterThanOrEqual(0);
      journal.entries = journal.entries.slice(0, last + 1);
      await writeFile(journalPath, JSON.stringify(journal));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await migrate(drizzle(client), { migrationsFolder: folder });
        await seed(client);
      } finally {
        await client.end();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    return url;
  }

  it('upgrade signed-in sessions: each becomes a sign-in of its own with its Discord tokens, nobody signed out', async () => {
    const url = await databaseAt('0015_history_entry_names', async (client) => {
      await client.query(
        `INSERT INTO sessions (id, token_hash, user_id, username, avatar, discord_access_token_enc,
           discord_refresh_token_enc, discord_token_expires_at, expires_at)
         VALUES ('00000000-0000-4000-8000-000000000001', 'hash', '200000000000000001', 'ada', 'av',
           'v1.access', 'v1.refresh', '2030-01-01T00:00:00Z', '2030-01-02T00:00:00Z')`,
      );
    });
    await runMigrations(url);
    expect(await query(url, 'SELECT id, sign_in_id, token_hash, user_id, username FROM sessions')).toEqual([
      {
        id: '00000000-0000-4000-8000-000000000001',
        sign_in_id: '00000000-0000-4000-8000-000000000001',
        token_hash: 'hash',
        user_id: '200000000000000001',
        username: 'ada',
      },
    ]);
    expect(
      await query(
        url,
        `SELECT user_id, username, avatar, discord_access_token_enc, discord_refresh_token_enc,
           refresh_token_hash, revoked_at FROM sign_ins`,
      ),
    ).toEqual([
      {
        user_id: '200000000000000001',
        username: 'ada',
        avatar: 'av',
        discord_access_token_enc: 'v1.access',
        discord_refresh_token_enc: 'v1.refresh',
        refresh_token_hash: null,
        revoked_at: null,
      },
    ]);
  });

  it('upgrade a database with a posted panel: the panel keeps its message, message_channel_id starts empty', async () => {
    // The database as the first release left it: only 0000_init applied.
    const url = await databaseAt('0000_init', async (client) => {
      await client.query(
        "INSERT INTO color_panels (guild_id, channel_id, message_id) VALUES ('300000000000000001', '12', '99')",
      );
    });
    await runMigrations(url);
    expect(
      await query(url, 'SELECT guild_id, channel_id, message_id, message_channel_id FROM color_panels'),
    ).toEqual([
      { guild_id: '300000000000000001', channel_id: '12', message_id: '99', message_channel_id: null },
    ]);
  });

  it('upgrade moves the reaction-roles lists into role menus, rows, author and time kept', async () => {
    const color = [{ emoji: '🔴', role_id: '400000000000000001', label: 'Red' }];
    const personality = [
      { emoji: '🎮', role_id: '400000000000000002' },
      { emoji: '🎵', role_id: '400000000000000003', description: 'Music' },
    ];
    const url = await databaseAt('0008_pending_level_ups_and_deployment', async (client) => {
      await client.query(
        `INSERT INTO reaction_roles (guild_id, color_roles, personality_roles, updated_by, updated_at)
         VALUES ('300000000000000002', $1, $2, '500000000000000001', '2026-01-02T03:04:05Z')`,
        [JSON.stringify(color), JSON.stringify(personality)],
      );
    });
    await runMigrations(url);
    const rows = await query<Record<string, unknown>>(
      url,
      `SELECT guild_id, list_key, title, style, mode, options, updated_by, updated_at::text AS updated_at,
              message_ids, channel_id
         FROM role_menus ORDER BY list_key`,
    );
    const kept = { guild_id: '300000000000000002', updated_by: '500000000000000001', style: 'reactions' };
    expect(rows).toEqual([
      expect.objectContaining({
        ...kept,
        list_key: 'color_roles',
        title: 'Color Roles',
        mode: 'unique',
        options: color,
      }),
      expect.objectContaining({
        ...kept,
        list_key: 'personality_roles',
        title: 'Personality Roles',
        mode: 'normal',
        options: personality,
      }),
    ]);
    expect(rows.map((row) => [row.message_ids, row.channel_id])).toEqual([
      [[], null],
      [[], null],
    ]);
    expect(String(rows[0]?.updated_at)).toMatch(/^2026-01-02 03:04:05/);
    expect(await publicTables(url)).not.toContain('reaction_roles');
  });

  it('upgrade partitions XP by guild: every row, default and key kept, batch records keyed by their guild', async () => {
    const url = await databaseAt('0025_season_schedule_and_kept_rewards', async (client) => {
      // Rows of many guilds, so they spread over the partitions.
      await client.query(
        `INSERT INTO member_xp (guild_id, user_id, xp, level, message_count, last_message_at, left_at, username,
           avatar, rewards_due_at, card_accent, decayed_at, kept_level)
         SELECT (300000000000000100 + g)::text, (400000000000000000 + u)::text, g * 10 + u, u, u * 2,
           '2026-11-01T00:00:00Z', NULL, 'm' || u, 'av', NULL, '#ff0000', '2026-11-02T00:00:00Z', 1
         FROM generate_series(1, 40) g, generate_series(1, 5) u`,
      );
      await client.query(
        `INSERT INTO member_daily_xp (guild_id, user_id, day, xp, messages, level_ups, voice_minutes)
         SELECT (300000000000000100 + g)::text, '400000000000000001', '2026-11-28', g, 2, 1, 3
         FROM generate_series(1, 40) g`,
      );
      await client.query(
        `INSERT INTO xp_flush_batches (batch_id) VALUES
           ('300000000000000101.2f1c'), ('erased:300000000000000102.9a0b:400000000000000001')`,
      );
    });
    await runMigrations(url);
    const xp = await query<{ n: number; total: string; kept: number; partitions: number }>(
      url,
      `SELECT count(*)::int AS n, sum(xp)::text AS total, count(*) FILTER (WHERE kept_level = 1 AND card_accent = '#ff0000'
         AND username IS NOT NULL AND decayed_at IS NOT NULL)::int AS kept, count(DISTINCT tableoid)::int AS partitions
       FROM member_xp`,
    );
    // 200 rows; xp = g*10 + u summed over g in 1..40 and u in 1..5.
    expect(xp).toEqual([{ n: 200, total: String(10 * 820 * 5 + 15 * 40), kept: 200, partitions: 16 }]);
    expect(
      await query(
        url,
        `SELECT count(*)::int AS n, sum(xp)::int AS xp, sum(messages + level_ups + voice_minutes)::int AS rest
         FROM member_daily_xp`,
      ),
    ).toEqual([{ n: 40, xp: 820, rest: 240 }]);
    // Defaults and keys as before: a bare insert gets zeros, a duplicate key is refused.
    await query(url, `INSERT INTO member_xp (guild_id, user_id) VALUES ('1', '2')`);
    expect(
      await query(
        url,
        `SELECT xp::int, level, message_count, kept_level FROM member_xp WHERE guild_id = '1'`,
      ),
    ).toEqual([{ xp: 0, level: 0, message_count: 0, kept_level: 0 }]);
    // (Postgres reports the partition's own copy of the key, `member_xp_pNN_pkey`.)
    await expect(query(url, `INSERT INTO member_xp (guild_id, user_id) VALUES ('1', '2')`)).rejects.toThrow(
      /duplicate key value violates unique constraint "member_xp_p\d+_pkey"/,
    );
    expect(await query(url, 'SELECT guild_id, batch_id FROM xp_flush_batches ORDER BY batch_id')).toEqual([
      { guild_id: '300000000000000101', batch_id: '300000000000000101.2f1c' },
      { guild_id: '300000000000000102', batch_id: 'erased:300000000000000102.9a0b:400000000000000001' },
    ]);
    // The old tables are gone; public lists the parents only, the partitions have their schema.
    expect(await publicTables(url)).toEqual(EXPECTED_TABLES);
    const parts = await query<{ n: number }>(
      url,
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'xp_partitions'",
    );
    expect(parts).toEqual([{ n: 32 }]);
  });

  it('databaseNameOf reads the path of a URL', () => {
    expect(databaseNameOf('postgres://postgres@127.0.0.1:5432/spacecadet')).toBe('spacecadet');
    expect(() => databaseNameOf('postgres://postgres@127.0.0.1:5432')).toThrow(/No database name/);
  });
});
