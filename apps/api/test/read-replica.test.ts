import {
  type HistoryList,
  type Leaderboard,
  type MemberDataExport,
  type PublicLeaderboard,
  routePath,
  routes,
} from '@spacecadet/contract';
import {
  createDb,
  databaseNameOf,
  guildHistory,
  levelingSettings,
  memberXp,
  withDatabase,
} from '@spacecadet/db';
import { postgresBinDir, type StreamingReplica, startStreamingReplica } from '@spacecadet/db/replica-testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiConfig } from '../src/app.ts';
import { checkReadReplica } from '../src/doctor/postgres.ts';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * DATABASE_READ_URL against a real streaming replica (`pg_basebackup -R` of a private primary):
 * the heavy reads are the replica's, an admin's own write shows on their next read even while
 * the replica lags, and a replica that is gone costs nothing but a warning. Skipped only on a
 * machine without the PostgreSQL server binaries (CI installs them with the `postgresql` package).
 */

const station = GUILDS.station;
/** A member only the primary knows while replay is paused. */
const ghost = '900000000000077777';

let pair: StreamingReplica | undefined;
let h: Harness | undefined;
let ada = '';
let replicaDbUrl = '';
const savedTestDatabaseUrl = process.env.TEST_DATABASE_URL;

const harness = (): Harness => {
  if (!h) throw new Error('no harness');
  return h;
};
const get = (url: string) => harness().app.inject({ method: 'GET', url, headers: { authorization: ada } });

async function reads() {
  const [board, open, history, csv, mine] = await Promise.all([
    get(`${routePath(routes.getLeaderboard, { guildId: station })}?limit=100`),
    harness().app.inject({
      method: 'GET',
      url: `${routePath(routes.getPublicLeaderboard, { guildId: station })}?limit=100`,
    }),
    get(routePath(routes.listHistory, { guildId: station })),
    get(routePath(routes.exportXp, { guildId: station })),
    get(routePath(routes.exportMemberData)),
  ]);
  for (const response of [board, open, history, csv, mine])
    expect(response.statusCode, response.body).toBe(200);
  return {
    board: board.json<Leaderboard>().members.map((m) => [m.user_id, m.xp]),
    open: open.json<PublicLeaderboard>().members.map((m) => [m.user_id, m.xp]),
    history: history.json<HistoryList>().entries.map((e) => e.summary),
    csv: csv.body,
    adaXp: mine.json<MemberDataExport>().servers.find((s) => s.guild_id === station)?.xp?.xp ?? null,
  };
}

describe('DATABASE_READ_URL in the environment', () => {
  it('is optional, and a value that is not a postgres:// URL refuses the start naming it', () => {
    // A local Discord: the sandbox's credentials, so only the read URL can be wrong.
    const base = { NODE_ENV: 'test', DISCORD_API_BASE: 'http://127.0.0.1/api' };
    expect(loadApiConfig(base).databaseReadUrl).toBeNull();
    expect(loadApiConfig({ ...base, DATABASE_READ_URL: ' ' }).databaseReadUrl).toBeNull();
    const url = 'postgres://reader@replica.internal:5432/spacecadet';
    expect(loadApiConfig({ ...base, DATABASE_READ_URL: url }).databaseReadUrl).toBe(url);
    expect(() => loadApiConfig({ ...base, DATABASE_READ_URL: 'mysql://replica/x' })).toThrow(
      /DATABASE_READ_URL: must be a postgres:\/\/ URL/,
    );
  });
});

describe.skipIf(postgresBinDir() === null)('DATABASE_READ_URL: a streaming read replica', () => {
  beforeAll(async () => {
    pair = await startStreamingReplica();
    // The harness's test database is made (and migrated) on the private primary; the replica
    // receives it as it receives everything, through the WAL.
    process.env.TEST_DATABASE_URL = pair.primaryUrl;
    const replicaUrl = pair.replicaUrl;
    h = await startHarness((config) => {
      replicaDbUrl = withDatabase(replicaUrl, databaseNameOf(config.databaseUrl));
      return { ...config, databaseReadUrl: replicaDbUrl };
    });
    ada = await signIn(h, USERS.ada);
    await h.database.db
      .insert(levelingSettings)
      .values({ guildId: station, leaderboardVisibility: 'anyone' })
      .onConflictDoUpdate({ target: levelingSettings.guildId, set: { leaderboardVisibility: 'anyone' } });
    await h.database.db
      .insert(memberXp)
      .values({ guildId: station, userId: USERS.nia, xp: 10, username: 'nia' });
    await pair.caughtUp();
  }, 120_000);

  afterAll(async () => {
    // Each step on its own: a failed one must not leave the servers or their dirs behind.
    await h?.close().catch(() => {});
    await pair?.close();
    if (savedTestDatabaseUrl === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = savedTestDatabaseUrl;
  });

  it('serves the leaderboards, History and the exports from the replica', async () => {
    const replica = pair as StreamingReplica;
    const primary = harness().database.db;
    await replica.pauseReplay();
    // Written on the primary behind the API's back: no write mark, so the reads stay on the replica.
    await primary.insert(memberXp).values([
      { guildId: station, userId: ghost, xp: 7777, username: 'ghost' },
      { guildId: station, userId: USERS.ada, xp: 555, username: 'ada' },
    ]);
    await primary.insert(guildHistory).values({
      guildId: station,
      actorId: USERS.ada,
      area: 'leveling',
      action: 'leveling.member_xp',
      subject: `leveling:xp:${ghost}`,
      summary: 'Written on the primary only',
      recordedAt: new Date(),
    });

    const behind = await reads();
    expect(behind.board).toEqual([[USERS.nia, 10]]);
    expect(behind.open).toEqual([[USERS.nia, 10]]);
    expect(behind.history).not.toContain('Written on the primary only');
    expect(behind.csv).not.toContain(ghost);
    expect(behind.adaXp).toBeNull();

    await replica.resumeReplay();
    await replica.caughtUp();
    const after = await reads();
    expect(after.board).toEqual([
      [ghost, 7777],
      [USERS.ada, 555],
      [USERS.nia, 10],
    ]);
    expect(after.open).toEqual(after.board);
    expect(after.history).toContain('Written on the primary only');
    expect(after.csv).toContain(`${ghost},ghost,7777`);
    expect(after.adaXp).toBe(555);
  });

  it("shows an admin's own write on their next read while the replica is behind", async () => {
    const replica = pair as StreamingReplica;
    await replica.pauseReplay();
    const set = await harness().app.inject({
      method: 'PUT',
      url: routePath(routes.setMemberXp, { guildId: station, userId: USERS.nia }),
      headers: { authorization: ada },
      payload: { xp: 4242 },
    });
    expect(set.statusCode, set.body).toBe(200);

    const mine = await reads();
    expect(mine.board).toContainEqual([USERS.nia, 4242]);
    expect(mine.open).toContainEqual([USERS.nia, 4242]);
    expect(mine.history[0]).toContain('Set the XP of');
    expect(mine.csv).toContain(`${USERS.nia},nia,4242`);

    // The replica really is behind: what was just read came from the primary.
    const direct = createDb(replicaDbUrl, { max: 1 });
    try {
      const [row] = await direct.db
        .select({ xp: memberXp.xp })
        .from(memberXp)
        .where(and(eq(memberXp.guildId, station), eq(memberXp.userId, USERS.nia)));
      expect(row?.xp).toBe(10);
    } finally {
      await direct.close();
    }
    await replica.resumeReplay();
    await replica.caughtUp();

    // Once the replica has the write, the guild's reads are the replica's again (the mark is
    // still there): a row the primary alone has is not shown.
    await replica.pauseReplay();
    await harness()
      .database.db.update(memberXp)
      .set({ xp: 4243 })
      .where(and(eq(memberXp.guildId, station), eq(memberXp.userId, USERS.nia)));
    expect((await reads()).board).toContainEqual([USERS.nia, 4242]);
    await replica.resumeReplay();
    await replica.caughtUp();
    expect((await reads()).board).toContainEqual([USERS.nia, 4243]);
  });

  it('the doctor reports the replica: replaying, and a primary given as one is refused', async () => {
    const replica = pair as StreamingReplica;
    expect(await checkReadReplica(replicaDbUrl)).toMatchObject({ ok: true });
    expect((await checkReadReplica(replica.primaryUrl)).what).toContain('is not a replica');
  });

  it('answers from the primary when the replica is down, and stays ready', async () => {
    const replica = pair as StreamingReplica;
    await replica.stopReplica();
    const down = await reads();
    expect(down.board).toContainEqual([USERS.nia, 4243]);
    expect(down.board).toContainEqual([ghost, 7777]);
    expect(down.adaXp).toBe(555);
    const ready = await harness().app.inject({ method: 'GET', url: routePath(routes.readyz) });
    expect(ready.statusCode, ready.body).toBe(200);
    const doctor = await checkReadReplica(replicaDbUrl);
    expect(doctor.ok).toBe(false);
    expect(doctor.what).toContain('unreachable');
  });
});
