/** The scale bench's Postgres seeding and Redis accounting. */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createDb } from '@spacecadet/db';
import { seedPersonalityCatalog } from '@spacecadet/db/queries/personality-roles';
import { levelingSettings, personalityConfigs } from '@spacecadet/db/schema';
import type { TestDatabase } from '@spacecadet/db/testing';
import { type GeneratedGuild, generatedGuildId, repoRoot, snowflake } from '../lib.ts';
import { ENABLED_OPTIONS, ENABLED_TYPES, ROLES, XP_PER_MESSAGE } from './config.ts';

export interface RawRedis {
  scan(cursor: string, ...args: string[]): Promise<[string, string[]]>;
  pipeline(): { call(...args: string[]): unknown; exec(): Promise<Array<[Error | null, unknown]>> };
  disconnect(): void;
}

/** Keys under `prefix:` and the bytes MEMORY USAGE gives them (ioredis as the worker loads it). */
export async function redisBytes(url: string, prefix: string): Promise<{ keys: number; bytes: number }> {
  const require = createRequire(join(repoRoot, 'apps', 'worker', 'package.json'));
  const { Redis } = require('ioredis') as { Redis: new (url: string) => RawRedis };
  const redis = new Redis(url);
  try {
    let cursor = '0';
    let keys = 0;
    let bytes = 0;
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', '1000');
      cursor = next;
      const pipeline = redis.pipeline();
      for (const key of batch) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      for (const [, usage] of await pipeline.exec()) bytes += Number(usage ?? 0);
      keys += batch.length;
    } while (cursor !== '0');
    return { keys, bytes };
  } finally {
    redis.disconnect();
  }
}

/** Postgres as each guild's admins would have left it: leveling on, personality roles set up. */
export async function seedDatabase(database: TestDatabase, guilds: readonly GeneratedGuild[]): Promise<void> {
  const { db } = database;
  for (let i = 0; i < guilds.length; i += 1_000) {
    const slice = guilds.slice(i, i + 1_000);
    await db.insert(levelingSettings).values(
      slice.map((guild) => ({
        guildId: guild.guildId,
        enabled: true,
        xpPerMessage: XP_PER_MESSAGE,
        xpMultiplier: 1,
        messageCooldownSec: 0,
      })),
    );
    await db.insert(personalityConfigs).values(
      slice.map((guild) => ({
        guildId: guild.guildId,
        assignChannelId: guild.channelId,
        configured: true,
        messagesPosted: false,
      })),
    );
  }
  // The first guild gets the catalog as Initialize seeds it; the others copy its rows in two
  // statements (seeding each guild on its own takes minutes at 10,000 guilds).
  const [seed, ...rest] = guilds;
  if (!seed) return;
  await db.transaction((tx) => seedPersonalityCatalog(tx, seed.guildId, ENABLED_TYPES));
  const admin = createDb(database.url, { max: 1 });
  try {
    const others = rest.map((guild) => guild.guildId);
    await admin.pool.query(
      `INSERT INTO personality_questions (guild_id, question_type, title, description, is_multi_select, is_enabled, position)
       SELECT g.id, q.question_type, q.title, q.description, q.is_multi_select, q.is_enabled, q.position
         FROM personality_questions AS q CROSS JOIN unnest($1::text[]) AS g(id)
        WHERE q.guild_id = $2`,
      [others, seed.guildId],
    );
    await admin.pool.query(
      `INSERT INTO personality_options (question_id, guild_id, label, emoji, position)
       SELECT nq.id, nq.guild_id, o.label, o.emoji, o.position
         FROM personality_options AS o
         JOIN personality_questions AS sq ON sq.id = o.question_id AND sq.guild_id = $1
         JOIN personality_questions AS nq ON nq.question_type = sq.question_type AND nq.guild_id <> $1`,
      [seed.guildId],
    );
    // The enabled options' roles are the guild's generated roles, in order (generateWorld's ids).
    const updated = await admin.pool.query(
      `UPDATE personality_options AS o
          SET role_id = ($1::bigint + ((o.guild_id::bigint - $2::bigint) >> 22) * $3 + ranked.n)::text
         FROM (SELECT o2.id, row_number() OVER (PARTITION BY o2.guild_id ORDER BY q.position, o2.position) - 1 AS n
                 FROM personality_options AS o2 JOIN personality_questions AS q ON q.id = o2.question_id
                WHERE q.is_enabled) AS ranked
        WHERE ranked.id = o.id`,
      [snowflake(5n, 0), generatedGuildId(0), ROLES],
    );
    await admin.pool.query('ANALYZE');
    if (updated.rowCount !== guilds.length * ENABLED_OPTIONS)
      throw new Error(`gave ${updated.rowCount} options a role, expected ${guilds.length * ENABLED_OPTIONS}`);
  } finally {
    await admin.close();
  }
}
