import { jobIdFor } from '@spacecadet/contract';
import { totalXpForLevel } from '@spacecadet/core';
import { beginHistoryEntry, completeHistoryEntry, loadHistoryEntry } from '@spacecadet/db/queries/history';
import { deleteLevelingData } from '@spacecadet/db/queries/leveling';
import {
  attachXpRows,
  loadLevelingSnapshot,
  restoreLevelingSnapshot,
  restoreXpRows,
  type XpRowsSnapshot,
} from '@spacecadet/db/queries/leveling-snapshots';
import {
  guildHistory,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
} from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  waitFor,
} from './helpers.ts';

const { ada, mo } = SANDBOX_IDS.users;

interface JobOutcome {
  state: string;
  result: unknown;
  error: string | undefined;
}

describe('leveling history: the prune snapshot and undo with Sync Roles', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  const db = () => harness.database.db;
  const completed = (outcome: JobOutcome) => {
    expect(outcome.error ?? '').toBe('');
    expect(outcome.state).toBe('completed');
    return outcome.result as { deleted?: number };
  };
  const run = async (name: 'leveling.sync-roles' | 'leveling.prune-leavers', historyEntryId?: number) => {
    const jobId = jobIdFor(name, STATION);
    const previous = await jobs.queue.getJob(jobId);
    if (previous) await previous.remove();
    await jobs.queue.add(
      name,
      {
        guild_id: STATION,
        requested_by: ada,
        ...(historyEntryId === undefined ? {} : { history_entry_id: historyEntryId }),
      },
      { jobId },
    );
    return completed(await jobs.finished(jobId));
  };
  const rewardRoleId = async () => (await db().select().from(levelingRoles))[0]?.roleId ?? null;
  // What the API's prune route leaves: a completed entry whose job takes the snapshot.
  const openEntry = async () => {
    const id = await beginHistoryEntry(db(), {
      guildId: STATION,
      actorId: ada,
      actorName: 'ada',
      actorAvatar: null,
      area: 'leveling',
      action: 'leveling.prune',
      subject: 'leveling:xp',
    });
    await completeHistoryEntry(db(), id, { summary: 'Pruned the XP of leavers', undoKind: 'snapshot' });
    return id;
  };

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  afterEach(async () => {
    for (const role of guildState(harness.sandbox, STATION).roles.filter((r) => r.name === 'Veteran')) {
      await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${role.id}`, { method: 'DELETE' });
    }
    await db().delete(levelingRoles);
    await db().delete(memberXp);
    await db().delete(memberDailyXp);
    await db().delete(levelingSettings);
    await db().delete(guildHistory);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('prune keeps the rows it deletes in the entry (ready); the restore and Sync Roles give the reward back', async () => {
    await db().insert(levelingSettings).values({ guildId: STATION, enabled: true });
    await db().insert(levelingRoles).values({ guildId: STATION, roleName: 'Veteran', levelRequired: 2 });
    await db()
      .insert(memberXp)
      .values([
        { guildId: STATION, userId: ada, level: 1, xp: totalXpForLevel(1) },
        { guildId: STATION, userId: mo, level: 3, xp: totalXpForLevel(3), username: 'mo' },
      ]);
    await db()
      .insert(memberDailyXp)
      .values({ guildId: STATION, userId: mo, day: '2026-11-20', xp: 50, messages: 5 });
    await run('leveling.sync-roles');
    const veteran = await rewardRoleId();
    expect(veteran).not.toBeNull();
    expect(memberRoles(harness.sandbox, STATION, mo)).toContain(veteran);

    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${mo}`, { method: 'DELETE' });
    try {
      await waitFor('mo marked as left', async () => {
        const [row] = await db().select().from(memberXp).where(eq(memberXp.userId, mo));
        return row?.leftAt !== null && row?.leftAt !== undefined;
      });
      const [moBefore] = await db().select().from(memberXp).where(eq(memberXp.userId, mo));
      const entryId = await openEntry();
      expect((await run('leveling.prune-leavers', entryId)).deleted).toBe(1);
      expect(await db().select().from(memberXp).where(eq(memberXp.userId, mo))).toEqual([]);

      const entry = await loadHistoryEntry(db(), STATION, entryId);
      expect(entry?.snapshotReady).not.toBeNull();
      const snapshot = entry?.snapshot as unknown as XpRowsSnapshot;
      expect(snapshot.members.map((row) => [row.userId, row.xp, row.level])).toEqual([
        [mo, totalXpForLevel(3), 3],
      ]);
      expect(snapshot.daily).toEqual([{ userId: mo, day: '2026-11-20', xp: 50, messages: 5, levelUps: 0 }]);

      // A retry (after a partial delete) adds only members it did not keep: the first rows stay.
      await attachXpRows(db(), STATION, entryId, {
        members: [{ ...snapshot.members[0], xp: 1 } as XpRowsSnapshot['members'][number]],
        daily: [],
      });
      const kept = (await loadHistoryEntry(db(), STATION, entryId))?.snapshot as unknown as XpRowsSnapshot;
      expect(kept.members).toEqual(snapshot.members);
      expect(kept.daily).toEqual(snapshot.daily);

      // Mo comes back; the undo puts the rows back and Sync Roles gives the reward again.
      await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${mo}`, { method: 'PUT' });
      await waitFor('mo back in the guild', async () =>
        guildState(harness.sandbox, STATION).members.some((member) => member.user_id === mo),
      );
      expect(memberRoles(harness.sandbox, STATION, mo)).not.toContain(veteran);
      await restoreXpRows(db(), STATION, kept, 'keepLarger');
      const [moAfter] = await db().select().from(memberXp).where(eq(memberXp.userId, mo));
      expect(moAfter?.xp).toBe(moBefore?.xp);
      expect(moAfter?.level).toBe(3);
      await run('leveling.sync-roles');
      expect(memberRoles(harness.sandbox, STATION, mo)).toContain(veteran);
    } finally {
      await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${mo}`, { method: 'PUT' });
    }
  });

  it('Reset Leveling undone: the reward role is made again and given to the member whose level earns it', async () => {
    await db().insert(levelingSettings).values({ guildId: STATION, enabled: true, xpMin: 25, xpMax: 25 });
    await db().insert(levelingRoles).values({ guildId: STATION, roleName: 'Veteran', levelRequired: 2 });
    await db()
      .insert(memberXp)
      .values({ guildId: STATION, userId: ada, level: 4, xp: totalXpForLevel(4) });
    await run('leveling.sync-roles');
    const first = await rewardRoleId();
    expect(memberRoles(harness.sandbox, STATION, ada)).toContain(first);

    const snapshot = await loadLevelingSnapshot(db(), STATION);
    await deleteLevelingData(db(), STATION);
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${first}`, { method: 'DELETE' });
    expect(memberRoles(harness.sandbox, STATION, ada)).not.toContain(first);

    await restoreLevelingSnapshot(db(), STATION, JSON.parse(JSON.stringify(snapshot)));
    expect(await rewardRoleId()).toBeNull();
    await run('leveling.sync-roles');
    const again = await rewardRoleId();
    expect(again).not.toBeNull();
    expect(memberRoles(harness.sandbox, STATION, ada)).toContain(again);
    const [row] = await db().select().from(memberXp).where(eq(memberXp.userId, ada));
    expect(row?.xp).toBe(totalXpForLevel(4));
  });
});
