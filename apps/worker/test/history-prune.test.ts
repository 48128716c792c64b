import { beginHistoryEntry, completeHistoryEntry } from '@spacecadet/db/queries/history';
import { guildHistory } from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, jobQueue, SANDBOX_IDS, STATION, startHarness } from './helpers.ts';

/**
 * `history.prune` on the real worker: a guild's entries older than 90 days go, snapshots older
 * than 7 days are dropped (their entries stay), unfinished entries older than a day go, and
 * everything recent, or of another guild, is kept.
 */
const DAY = 24 * 3600 * 1000;
const ORBIT = SANDBOX_IDS.guilds.orbit;

describe('history.prune', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  const db = () => harness.database.db;

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  async function entry(
    daysAgo: number,
    options: { guildId?: string; snapshot?: Record<string, unknown>; recorded?: boolean } = {},
  ): Promise<number> {
    const id = await beginHistoryEntry(db(), {
      guildId: options.guildId ?? STATION,
      actorId: SANDBOX_IDS.users.ada,
      actorName: 'ada',
      actorAvatar: null,
      area: 'leveling',
      action: options.snapshot ? 'leveling.reset_all' : 'leveling.settings',
      subject: options.snapshot ? 'leveling' : 'leveling:settings',
    });
    if (options.recorded !== false) {
      await completeHistoryEntry(db(), id, {
        summary: 'A change',
        undoKind: options.snapshot ? 'snapshot' : 'state',
        ...(options.snapshot ? { snapshot: options.snapshot } : { before: { a: 1 }, after: { a: 2 } }),
      });
    }
    await db()
      .update(guildHistory)
      .set({ at: new Date(Date.now() - daysAgo * DAY) })
      .where(eq(guildHistory.id, id));
    return id;
  }
  const row = async (id: number) =>
    (await db().select().from(guildHistory).where(eq(guildHistory.id, id)))[0];

  it("removes the guild's old entries and expired snapshots, and keeps the recent ones", async () => {
    const old = await entry(120);
    const recent = await entry(30);
    const expiredSnapshot = await entry(10, { snapshot: { members: [1] } });
    const liveSnapshot = await entry(2, { snapshot: { members: [2] } });
    const abandoned = await entry(3, { recorded: false });
    const running = await entry(0, { recorded: false });
    const otherGuild = await entry(120, { guildId: ORBIT });

    const job = await jobs.add('history.prune', STATION);
    const done = await jobs.finished(job.id ?? '');
    expect(done.state, done.error).toBe('completed');
    expect(done.result).toMatchObject({ ok: true, deleted: 2 });

    expect(await row(old)).toBeUndefined();
    expect(await row(abandoned)).toBeUndefined();
    expect(await row(recent)).toMatchObject({ before: { a: 1 } });
    expect(await row(running)).toBeDefined();
    expect(await row(otherGuild)).toBeDefined();
    expect(await row(expiredSnapshot)).toMatchObject({ snapshot: null, snapshotReady: null });
    expect(await row(liveSnapshot)).toMatchObject({ snapshot: { members: [2] } });
  });
});
