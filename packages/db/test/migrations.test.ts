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

  it('databaseNameOf reads the path of a URL', () => {
    expect(databaseNameOf('postgres://postgres@127.0.0.1:5432/spacecadet')).toBe('spacecadet');
    expect(() => databaseNameOf('postgres://postgres@127.0.0.1:5432')).toThrow(/No database name/);
  });
});
