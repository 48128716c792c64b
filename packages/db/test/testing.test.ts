import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseNameOf } from '../src/database.ts';
import { botGuilds } from '../src/schema.ts';
import { createTestDatabase, testRedis } from '../src/testing.ts';

async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  it('gives each caller its own migrated database', async () => {
    const [a, b] = await Promise.all([createTestDatabase('iso'), createTestDatabase('iso')]);
    try {
      expect(a.url).not.toBe(b.url);
      expect(databaseNameOf(a.url)).toMatch(/^iso_[a-z0-9]+_[0-9a-f]{10}$/);
      await a.db.insert(botGuilds).values({ guildId: '300000000000000001', name: 'Sandbox Station' });
      expect(await a.db.select().from(botGuilds)).toHaveLength(1);
      expect(await b.db.select().from(botGuilds)).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('close() drops the database even while other clients are connected, and is idempotent', async () => {
    const testDb = await createTestDatabase('Drop-Me!');
    const name = databaseNameOf(testDb.url);
    expect(name).toMatch(/^drop_me__/);
    // A client the code under test forgot to close must not block the drop.
    const straggler = new pg.Client({ connectionString: testDb.url });
    straggler.on('error', () => {});
    await straggler.connect();

    const server = new URL(testDb.url);
    server.pathname = '/postgres';
    expect(await databaseExists(server.toString(), name)).toBe(true);
    await testDb.close();
    await testDb.close();
    expect(await databaseExists(server.toString(), name)).toBe(false);
    await straggler.end().catch(() => {});
  });
});

describe('testRedis', () => {
  it('gives unique prefixes and close() deletes only its own keys', async () => {
    const [one, two] = await Promise.all([testRedis(), testRedis()]);
    expect(one.prefix).not.toBe(two.prefix);
    expect(one.prefix).toMatch(/^t_/);
    const redis = new Redis(one.url);
    try {
      await redis.set(`${one.prefix}:cooldown:1`, '1');
      await redis.set(`${one.prefix}:bull:jobs:2`, '1');
      await redis.set(`${two.prefix}:cooldown:1`, '1');
      await one.close();
      expect(await redis.exists(`${one.prefix}:cooldown:1`, `${one.prefix}:bull:jobs:2`)).toBe(0);
      expect(await redis.exists(`${two.prefix}:cooldown:1`)).toBe(1);
      await two.close();
      expect(await redis.exists(`${two.prefix}:cooldown:1`)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});
