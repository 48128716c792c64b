import type { HistoryAction } from '@spacecadet/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  attachSnapshot,
  beginHistoryEntry,
  claimUndo,
  completeHistoryEntry,
  type HistoryCompletion,
  loadRestoresRequested,
  markRestored,
  newerChangeOn,
  pruneGuildHistory,
  releaseUndo,
} from '../src/queries/history.ts';
import { guildHistory } from '../src/schema.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

/** The history queries against a real Postgres: pruning, the overlap of subjects, snapshots, undo claims. */
const GUILD = '300000000000000001';
const OTHER_GUILD = '300000000000000003';
const DAY = 24 * 3600 * 1000;
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('db_history');
});
afterAll(async () => {
  await testDb?.close();
});
beforeEach(async () => {
  await testDb.db.delete(guildHistory);
});

interface EntryOptions {
  guildId?: string;
  action?: HistoryAction;
  subject?: string;
  /** Days ago the change was made. */
  daysAgo?: number;
  /** false: the request never finished (no `recorded_at`). */
  recorded?: boolean;
  completion?: Partial<HistoryCompletion>;
}

async function entry(options: EntryOptions = {}): Promise<number> {
  const { db } = testDb;
  const id = await beginHistoryEntry(db, {
    guildId: options.guildId ?? GUILD,
    actorId: '200000000000000001',
    actorName: 'ada',
    actorAvatar: null,
    area: 'leveling',
    action: options.action ?? 'leveling.settings',
    subject: options.subject ?? 'leveling:settings',
  });
  if (options.recorded !== false) {
    await completeHistoryEntry(db, id, { summary: 'A change', undoKind: 'state', ...options.completion });
  }
  if (options.daysAgo !== undefined) {
    await db
      .update(guildHistory)
      .set({ at: new Date(Date.now() - options.daysAgo * DAY) })
      .where(eq(guildHistory.id, id));
  }
  return id;
}

const row = async (id: number) =>
  (await testDb.db.select().from(guildHistory).where(eq(guildHistory.id, id)))[0];

describe('pruneGuildHistory', () => {
  it('drops entries older than 90 days, snapshots older than 7 days (the entry stays), and unfinished entries older than a day', async () => {
    const old = await entry({ daysAgo: 91 });
    const kept = await entry({ daysAgo: 89 });
    const oldSnapshot = await entry({
      action: 'leveling.reset_all',
      subject: 'leveling',
      daysAgo: 8,
      completion: { undoKind: 'snapshot', snapshot: { members: [1, 2] } },
    });
    const freshSnapshot = await entry({
      action: 'leveling.reset_all',
      subject: 'leveling',
      daysAgo: 6,
      completion: { undoKind: 'snapshot', snapshot: { members: [3] } },
    });
    const unfinishedOld = await entry({ recorded: false, daysAgo: 2 });
    const unfinishedNew = await entry({ recorded: false });
    const otherGuild = await entry({ guildId: OTHER_GUILD, daysAgo: 100 });

    expect(await pruneGuildHistory(testDb.db, GUILD)).toEqual({ deleted: 2, snapshotsDropped: 1 });

    expect(await row(old)).toBeUndefined();
    expect(await row(unfinishedOld)).toBeUndefined();
    expect(await row(kept)).toBeDefined();
    expect(await row(unfinishedNew)).toBeDefined();
    expect(await row(otherGuild)).toBeDefined();
    expect(await row(oldSnapshot)).toMatchObject({ snapshot: null, snapshotReady: null });
    expect(await row(freshSnapshot)).toMatchObject({ snapshot: { members: [3] } });
    expect((await row(freshSnapshot))?.snapshotReady).not.toBeNull();
  });

  it('gives back an entry claimed by an undo whose request never finished, unless it was restored', async () => {
    const deadUndo = await entry({ action: 'history.undo', recorded: false, daysAgo: 2 });
    const claimed = await entry();
    const restored = await entry({ action: 'leveling.reset_all', subject: 'leveling' });
    expect(await claimUndo(testDb.db, GUILD, claimed, deadUndo)).toBe(true);
    expect(await claimUndo(testDb.db, GUILD, restored, deadUndo)).toBe(true);
    await markRestored(testDb.db, GUILD, restored);
    expect(await pruneGuildHistory(testDb.db, GUILD)).toMatchObject({ deleted: 1 });
    expect(await row(claimed)).toMatchObject({ undoneBy: null });
    expect(await row(restored)).toMatchObject({ undoneBy: deadUndo });
  });

  it('keeps an old snapshot whose restore was asked in time and has not run yet', async () => {
    const undoer = await entry();
    const waiting = await entry({
      action: 'color_roles.reset',
      subject: 'color_roles',
      daysAgo: 8,
      completion: { undoKind: 'snapshot', snapshot: { palette: 1 } },
    });
    expect(await claimUndo(testDb.db, GUILD, waiting, undoer, { restore: true })).toBe(true);
    expect(await pruneGuildHistory(testDb.db, GUILD)).toEqual({ deleted: 0, snapshotsDropped: 0 });
    expect(await row(waiting)).toMatchObject({ snapshot: { palette: 1 } });
    await markRestored(testDb.db, GUILD, waiting);
    expect(await pruneGuildHistory(testDb.db, GUILD)).toEqual({ deleted: 0, snapshotsDropped: 1 });
  });
});

describe('newerChangeOn', () => {
  it('finds a newer change of the subject, one under it and one holding it; not a sibling nor a prefix-alike', async () => {
    const reset = await entry({ subject: 'leveling', action: 'leveling.reset_all' });
    const memberXp = await entry({ subject: 'leveling:xp:1', action: 'leveling.member_xp' });
    // Whole leveling vs one member's XP, both ways.
    expect((await newerChangeOn(testDb.db, GUILD, 'leveling', reset))?.id).toBe(memberXp);
    const laterReset = await entry({ subject: 'leveling', action: 'leveling.reset_all' });
    expect((await newerChangeOn(testDb.db, GUILD, 'leveling:xp:1', memberXp))?.id).toBe(laterReset);

    await testDb.db.delete(guildHistory);
    const mine = await entry({ subject: 'leveling' });
    await entry({ subject: 'leveling_x' });
    await entry({ subject: 'levelingx:1' });
    await entry({ subject: 'leveling', guildId: OTHER_GUILD });
    expect(await newerChangeOn(testDb.db, GUILD, 'leveling', mine)).toBeNull();
    // Only newer entries count, and only recorded ones.
    const older = await entry({ subject: 'leveling:xp:2' });
    expect(await newerChangeOn(testDb.db, GUILD, 'leveling:xp:2', older)).toBeNull();
    await entry({ subject: 'leveling:xp:2', recorded: false });
    expect(await newerChangeOn(testDb.db, GUILD, 'leveling:xp:2', older)).toBeNull();
    // A LIKE wildcard in a subject is taken as itself.
    const underscore = await entry({ subject: 'a_b' });
    await entry({ subject: 'axb:1' });
    expect(await newerChangeOn(testDb.db, GUILD, 'a_b', underscore)).toBeNull();
  });
});

describe('attachSnapshot', () => {
  it("keeps the first run's keys, adds new ones, and marks the snapshot ready once", async () => {
    const id = await entry({
      action: 'leveling.reset_all',
      subject: 'leveling',
      completion: { undoKind: 'snapshot' },
    });
    await attachSnapshot(testDb.db, GUILD, id, { members: [1, 2] }, { ready: false });
    expect(await row(id)).toMatchObject({ snapshot: { members: [1, 2] }, snapshotReady: null });
    await attachSnapshot(testDb.db, GUILD, id, { members: [], roles: ['r'] }, { ready: true });
    const first = await row(id);
    expect(first?.snapshot).toEqual({ members: [1, 2], roles: ['r'] });
    expect(first?.snapshotReady).not.toBeNull();
    await attachSnapshot(testDb.db, GUILD, id, { more: true }, { ready: true });
    const second = await row(id);
    expect(second?.snapshotReady).toEqual(first?.snapshotReady);
    // Another guild's id changes nothing.
    await attachSnapshot(testDb.db, OTHER_GUILD, id, { other: 1 }, { ready: true });
    expect((await row(id))?.snapshot).toEqual({ members: [1, 2], roles: ['r'], more: true });
  });
});

describe('claimUndo', () => {
  it('succeeds once; released, it can be claimed again', async () => {
    const id = await entry();
    const undoA = await entry({ action: 'history.undo' });
    const undoB = await entry({ action: 'history.undo' });
    const claims = await Promise.all([
      claimUndo(testDb.db, GUILD, id, undoA),
      claimUndo(testDb.db, GUILD, id, undoB),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims[0] ? undoA : undoB;
    expect((await row(id))?.undoneBy).toBe(winner);
    expect(await claimUndo(testDb.db, GUILD, id, undoA)).toBe(false);
    expect(await claimUndo(testDb.db, OTHER_GUILD, id, undoA)).toBe(false);

    await releaseUndo(testDb.db, GUILD, id, winner);
    expect(await claimUndo(testDb.db, GUILD, id, undoA, { restore: true })).toBe(true);
    expect((await row(id))?.restoreRequestedAt).not.toBeNull();
  });
});

describe('loadRestoresRequested', () => {
  it("answers the guild's entries of these actions whose restore was asked and is not done, oldest first", async () => {
    const undoer = await entry();
    const color = await entry({ action: 'color_roles.reset', subject: 'color_roles' });
    const colorLater = await entry({ action: 'color_roles.reset', subject: 'color_roles' });
    const personality = await entry({ action: 'personality_roles.reset', subject: 'personality_roles' });
    const notAsked = await entry({ action: 'color_roles.reset', subject: 'color_roles' });
    const elsewhere = await entry({
      guildId: OTHER_GUILD,
      action: 'color_roles.reset',
      subject: 'color_roles',
    });
    for (const id of [colorLater, color, personality]) {
      expect(await claimUndo(testDb.db, GUILD, id, undoer, { restore: true })).toBe(true);
    }
    expect(await claimUndo(testDb.db, GUILD, notAsked, undoer)).toBe(true);
    expect(await claimUndo(testDb.db, OTHER_GUILD, elsewhere, undoer, { restore: true })).toBe(true);

    const ids = async () =>
      (await loadRestoresRequested(testDb.db, GUILD, ['color_roles.reset'])).map((r) => r.id);
    expect(await ids()).toEqual([color, colorLater]);
    await markRestored(testDb.db, GUILD, color);
    expect(await ids()).toEqual([colorLater]);
    expect(await loadRestoresRequested(testDb.db, GUILD, [])).toEqual([]);
  });
});
