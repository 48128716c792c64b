import { personalityLastRefreshKey, personalityLastRepairKey, repairJobIdFor } from '@spacecadet/contract';
import { totalXpForLevel } from '@spacecadet/core';
import { loadPalette } from '@spacecadet/db/queries/color-roles';
import {
  loadPersonalityQuestion,
  type StoredPersonalityQuestion,
  seedPersonalityCatalog,
} from '@spacecadet/db/queries/personality-roles';
import {
  colorPanels,
  levelingRoles,
  levelingSettings,
  memberRolePicks,
  memberXp,
  personalityConfigs,
} from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../src/env.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  finalAnswer,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  postStationColorPanel,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const { nia, mo, rex } = SANDBOX_IDS.users;
const rolesChannel = SANDBOX_IDS.channels.roles;
/** The goal of repairs: a deleted role is back, and back on its members, within 10 s. */
const REPAIR_DEADLINE_MS = 10_000;

describe('REPAIR_DELAY_MS', () => {
  it('is 1 s by default, a number of milliseconds, or off', () => {
    const env = { DISCORD_API_BASE: 'http://127.0.0.1:1/api' };
    expect(loadWorkerConfig(env).repairDelayMs).toBe(1000);
    expect(loadWorkerConfig({ ...env, REPAIR_DELAY_MS: '250' }).repairDelayMs).toBe(250);
    expect(loadWorkerConfig({ ...env, REPAIR_DELAY_MS: 'off' }).repairDelayMs).toBeNull();
    expect(() => loadWorkerConfig({ ...env, REPAIR_DELAY_MS: 'soon' })).toThrow(/REPAIR_DELAY_MS/);
  });
});

describe('repairs after an admin deletes what the bot manages', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  /** Job ids of every job the worker started (first attempts and retries alike). */
  const started: string[] = [];

  const sandbox = () => control(harness.sandbox);
  const question = async (type: string): Promise<StoredPersonalityQuestion> => {
    const found = await loadPersonalityQuestion(harness.database.db, STATION, type);
    if (!found) throw new Error(`question ${type} not seeded`);
    return found;
  };
  const roleExists = (roleId: string) =>
    guildState(harness.sandbox, STATION).roles.some((r) => r.id === roleId);
  const channelMessageIds = () =>
    (guildState(harness.sandbox, STATION).channels.find((c) => c.id === rolesChannel)?.messages ?? []).map(
      (m) => m.id,
    );
  const picksOf = async (targetKey: string) =>
    (
      await harness.database.db.select().from(memberRolePicks).where(eq(memberRolePicks.targetKey, targetKey))
    ).map((pick) => pick.userId);
  const adminDeletesRole = (roleId: string) =>
    fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${roleId}`, { method: 'DELETE' });
  const adminDeletesMessage = (messageId: string) =>
    fetch(`${harness.sandbox.url}/_sandbox/channels/${rolesChannel}/messages/${messageId}`, {
      method: 'DELETE',
    });

  beforeAll(async () => {
    harness = await startHarness();
    const logger = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          const parsed = JSON.parse(line) as { msg: string; jobId?: string };
          if (parsed.msg === 'job started' && parsed.jobId) started.push(parsed.jobId);
        },
      },
    );
    worker = await startWorker(harness.config({ REPAIR_DELAY_MS: '1000' }), { logger });
    jobs = jobQueue(harness);
    await harness.database.db.transaction(async (tx) => {
      await tx
        .insert(personalityConfigs)
        .values({ guildId: STATION, assignChannelId: rolesChannel, configured: true });
      await seedPersonalityCatalog(tx, STATION);
    });
    for (const name of ['personality-roles.generate', 'personality-roles.post'] as const) {
      expect((await jobs.finished((await jobs.add(name)).id ?? '')).state).toBe('completed');
    }
    await postStationColorPanel(harness);
  }, 60_000);
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  it('gives a deleted answer role back to the members who held it, within 10 s', async () => {
    const zodiac = await question('zodiac');
    const aries = zodiac.options[0];
    if (!aries?.roleId || !zodiac.messageId) throw new Error('zodiac not generated and posted');
    for (const user of [nia, mo]) {
      const click = await sandbox().click({
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: zodiac.messageId,
        user_id: user,
        custom_id: `personality:zodiac:o${aries.id}`,
      });
      expect(await finalAnswer(harness.sandbox, click)).toContain('Aries');
    }
    const key = `option:${aries.id}`;
    await waitFor('both picks recorded', async () => (await picksOf(key)).length === 2);
    expect((await picksOf(key)).sort()).toEqual([nia, mo].sort());

    expect((await adminDeletesRole(aries.roleId)).ok).toBe(true);
    const recreated = await waitFor(
      'the Aries role recreated and on nia and mo again',
      async () => {
        const roleId = (await question('zodiac')).options[0]?.roleId;
        if (!roleId || roleId === aries.roleId || !roleExists(roleId)) return undefined;
        const holders = [nia, mo].filter((user) =>
          memberRoles(harness.sandbox, STATION, user).includes(roleId),
        );
        return holders.length === 2 ? roleId : undefined;
      },
      REPAIR_DEADLINE_MS,
    );
    expect(memberRoles(harness.sandbox, STATION, rex)).not.toContain(recreated);
  });

  it('keeps showing that repair after a later run that found everything in place', async () => {
    const redis = new Redis(harness.redis.url);
    try {
      const read = async (key: string) => JSON.parse((await redis.get(storedKey(harness, key))) ?? 'null');
      // Recorded when the repair ends, a moment after the members got their role.
      const repair = await waitFor(
        'the repair recorded',
        async () => (await read(personalityLastRepairKey(STATION))) ?? undefined,
      );
      expect(repair).toMatchObject({
        summary: '1 role created, 2 members given their role back.',
        repaired: 3,
      });
      expect((await jobs.finished((await jobs.add('personality-roles.refresh')).id ?? '')).state).toBe(
        'completed',
      );
      expect(await read(personalityLastRefreshKey(STATION))).toMatchObject({
        summary: 'Everything was in place.',
        repaired: 0,
      });
      expect(await read(personalityLastRepairKey(STATION))).toEqual(repair);
    } finally {
      redis.disconnect();
    }
  });

  it('gives a deleted colour role back, and posts a deleted colour panel again', async () => {
    const [panel] = await harness.database.db.select().from(colorPanels);
    if (!panel?.messageId) throw new Error('no colour panel');
    const red = (await loadPalette(harness.database.db, STATION)).find((color) => color.name === 'Red');
    if (!red?.roleId) throw new Error('no Red role');
    const click = await sandbox().click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: panel.messageId,
      user_id: nia,
      custom_id: 'color:pick:Red',
    });
    expect(await finalAnswer(harness.sandbox, click)).toBe('You now have the **Red** color.');
    await waitFor('the colour pick recorded', async () => (await picksOf(`color:${red.id}`)).includes(nia));

    expect((await adminDeletesRole(red.roleId)).ok).toBe(true);
    await waitFor(
      'Red recreated and on nia again',
      async () => {
        const roleId = (await loadPalette(harness.database.db, STATION)).find(
          (c) => c.name === 'Red',
        )?.roleId;
        if (!roleId || roleId === red.roleId || !roleExists(roleId)) return undefined;
        return memberRoles(harness.sandbox, STATION, nia).includes(roleId);
      },
      REPAIR_DEADLINE_MS,
    );

    expect((await adminDeletesMessage(panel.messageId)).ok).toBe(true);
    const reposted = await waitFor(
      'the colour panel posted again',
      async () => {
        const [now] = await harness.database.db.select().from(colorPanels);
        const id = now?.messageId;
        return id && id !== panel.messageId && channelMessageIds().includes(id) ? id : undefined;
      },
      REPAIR_DEADLINE_MS,
    );
    expect(channelMessageIds()).not.toContain(panel.messageId);
    expect(reposted).toBeTruthy();
  });

  it('posts question messages removed by a bulk delete again', async () => {
    const before = await Promise.all(['mbti', 'hobbies'].map(question));
    const ids = before.map((q) => q.messageId ?? '');
    const purge = await fetch(
      `${harness.sandbox.url}/_sandbox/channels/${rolesChannel}/messages/bulk-delete`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: ids }),
      },
    );
    expect(((await purge.json()) as { deleted: string[] }).deleted.sort()).toEqual([...ids].sort());
    await waitFor(
      'both question messages posted again',
      async () => {
        const after = await Promise.all(['mbti', 'hobbies'].map(question));
        return after.every(
          (q, i) => q.messageId && q.messageId !== ids[i] && channelMessageIds().includes(q.messageId),
        );
      },
      REPAIR_DEADLINE_MS,
    );
  });

  it('recreates a deleted reward role and gives it to the members whose level earns it', async () => {
    const db = harness.database.db;
    await db.insert(levelingSettings).values({ guildId: STATION, enabled: true });
    const [reward] = await db
      .insert(levelingRoles)
      .values({ guildId: STATION, roleName: 'Cadet', levelRequired: 2 })
      .returning();
    await db.insert(memberXp).values([
      { guildId: STATION, userId: mo, level: 3, xp: totalXpForLevel(3) },
      { guildId: STATION, userId: rex, level: 1, xp: totalXpForLevel(1) },
    ]);
    expect((await jobs.finished((await jobs.add('leveling.sync-roles')).id ?? '')).state).toBe('completed');
    const rewardRole = async () =>
      (
        await db
          .select()
          .from(levelingRoles)
          .where(eq(levelingRoles.id, reward?.id ?? 0))
      )[0]?.roleId ?? null;
    const first = await rewardRole();
    if (!first) throw new Error('reward role not created');
    expect(memberRoles(harness.sandbox, STATION, mo)).toContain(first);

    expect((await adminDeletesRole(first)).ok).toBe(true);
    const second = await waitFor(
      'Cadet recreated and on mo again',
      async () => {
        const roleId = await rewardRole();
        if (!roleId || roleId === first || !roleExists(roleId)) return undefined;
        return memberRoles(harness.sandbox, STATION, mo).includes(roleId) ? roleId : undefined;
      },
      REPAIR_DEADLINE_MS,
    );
    expect(memberRoles(harness.sandbox, STATION, rex)).not.toContain(second);
  });

  it('repairs a burst of deletes with one job', async () => {
    const repairId = repairJobIdFor('personality-roles.refresh', STATION);
    // Earlier repairs are done (each test waited for its outcome), so what starts now is this burst's.
    await waitFor('no repair pending', async () => {
      const states = await Promise.all(
        [repairId, `${repairId}.followup`].map((id) => jobs.queue.getJobState(id)),
      );
      return states.every((state) => ['completed', 'failed', 'unknown'].includes(state));
    });
    const from = started.length;
    const mbti = await question('mbti');
    const doomed = mbti.options.slice(0, 3).map((option) => option.roleId ?? '');
    expect(doomed.every(Boolean)).toBe(true);
    // One after the other, as an admin (or a moderation bot) does.
    for (const roleId of doomed) expect((await adminDeletesRole(roleId)).ok).toBe(true);
    await waitFor(
      'the three roles recreated',
      async () => {
        const now = (await question('mbti')).options.slice(0, 3).map((option) => option.roleId ?? '');
        return now.every((id, i) => id && id !== doomed[i] && roleExists(id));
      },
      REPAIR_DEADLINE_MS,
    );
    await waitFor(
      'the repair to finish',
      async () => (await jobs.queue.getJobState(repairId)) === 'completed',
    );
    const repairs = started.slice(from).filter((id) => id.startsWith(repairId));
    expect(repairs).toEqual([repairId]);
  });
});
