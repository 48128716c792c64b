import { jobIdFor } from '@spacecadet/contract';
import { loadPersonalityQuestions, seedPersonalityCatalog } from '@spacecadet/db/queries/personality-roles';
import { personalityConfigs, personalityQuestions } from '@spacecadet/db/schema';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isVerified } from '../src/features/personality-roles/verified.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, jobQueue, SANDBOX_IDS, STATION, startHarness, waitFor } from './helpers.ts';

interface RefreshLine {
  msg: string;
  startedAt: number;
  ms: number;
  guildId: string;
}

/** The guild lock turned a refresh away while another held it. */
const BUSY = 'guild busy with another job of this feature, delaying';

/** A worker whose log lines this test reads: refreshes it finished, refreshes it had to delay. */
function loggedWorker(harness: Harness, lines: RefreshLine[], busy: string[]) {
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        const parsed = JSON.parse(line) as RefreshLine & { job?: string };
        if (parsed.msg === 'personality refresh finished') lines.push(parsed);
        if (parsed.msg === BUSY && parsed.job === 'personality-roles.refresh') busy.push(parsed.msg);
      },
    },
  );
  return startWorker(harness.config({ WORKER_CONCURRENCY: '4' }), { logger });
}

describe('the personality refresh across two worker processes', () => {
  let harness: Harness;
  const workers: RunningWorker[] = [];
  let jobs: ReturnType<typeof jobQueue>;
  const linesA: RefreshLine[] = [];
  const linesB: RefreshLine[] = [];
  const busyA: string[] = [];
  const busyB: string[] = [];

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
    workers.push(await loggedWorker(harness, linesA, busyA), await loggedWorker(harness, linesB, busyB));
    await harness.database.db.transaction(async (tx) => {
      await tx
        .insert(personalityConfigs)
        .values({ guildId: STATION, assignChannelId: SANDBOX_IDS.channels.roles, configured: true });
      await seedPersonalityCatalog(tx, STATION);
    });
    for (const name of ['personality-roles.generate', 'personality-roles.post'] as const) {
      expect((await jobs.finished((await jobs.add(name)).id ?? '')).state).toBe('completed');
    }
  });
  afterAll(async () => {
    await jobs?.close();
    for (const worker of workers) await worker.close();
    await harness.close();
  });

  it("never runs one guild refresh twice at once, and only the guild's shard's process runs them", async () => {
    // A busy server: members post and delete chat messages all the time, so the workers never
    // trust their stored messages and each refresh reads the channel; a slow answer keeps each
    // run going ~300 ms, long enough that two runs at once would show as overlapping spans.
    const sandbox = control(harness.sandbox);
    let churning = true;
    const churn = (async () => {
      while (churning) {
        const { id } = await sandbox.postMessage({
          guild_id: STATION,
          channel_id: SANDBOX_IDS.channels.general,
          author_id: SANDBOX_IDS.users.nia,
          content: 'brb',
        });
        await fetch(
          `${harness.sandbox.url}/_sandbox/channels/${SANDBOX_IDS.channels.general}/messages/${id}`,
          {
            method: 'DELETE',
          },
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await sandbox.fault({
      method: 'GET',
      path: `/channels/${SANDBOX_IDS.channels.roles}/messages`,
      status: 429,
      count: 8,
      retry_after: 0.3,
    });
    const before = linesA.length + linesB.length;
    const ids = Array.from(
      { length: 8 },
      (_, i) => `${jobIdFor('personality-roles.refresh', STATION)}.burst${i}`,
    );
    await jobs.queue.addBulk(
      ids.map((jobId) => ({
        name: 'personality-roles.refresh',
        data: { guild_id: STATION, requested_by: null },
        opts: { jobId },
      })),
    );
    await waitFor('8 refreshes to finish', () => linesA.length + linesB.length >= before + 8, 30_000).finally(
      async () => {
        churning = false;
        await churn;
      },
    );
    const runs = [...linesA, ...linesB]
      .slice(0)
      .filter((line) => line.guildId === STATION)
      .map((line) => ({ start: line.startedAt, end: line.startedAt + line.ms }))
      .sort((a, b) => a.start - b.start);
    for (let i = 1; i < runs.length; i += 1) {
      const [previous, current] = [runs[i - 1], runs[i]];
      expect(current?.start ?? 0, `run ${i} starts after run ${i - 1} ended`).toBeGreaterThanOrEqual(
        previous?.end ?? 0,
      );
    }
    // Jobs follow their shards: only the process holding the guild's shard took refreshes (the
    // other waits as a standby), so the exclusion above held among its concurrent jobs
    // (WORKER_CONCURRENCY 4) through the guild lock.
    const took = [linesA.length + busyA.length, linesB.length + busyB.length];
    expect(took.filter((count) => count > 0)).toHaveLength(1);
  });

  it('a change stored while a refresh runs gets a run that reads it', async () => {
    const sandbox = control(harness.sandbox);
    const zodiacMessage = async () =>
      (await loadPersonalityQuestions(harness.database.db, STATION)).find((q) => q.questionType === 'zodiac')
        ?.messageId;
    const posted = await zodiacMessage();
    expect(posted).toBeTruthy();
    // A member deletes another question's message, so the refresh reads the channel: it reads
    // the questions, then waits ~1 s on the channel's messages.
    const mbti = (await loadPersonalityQuestions(harness.database.db, STATION)).find(
      (q) => q.questionType === 'mbti',
    );
    await fetch(
      `${harness.sandbox.url}/_sandbox/channels/${SANDBOX_IDS.channels.roles}/messages/${mbti?.messageId}`,
      {
        method: 'DELETE',
      },
    );
    await waitFor('both workers to hear of the delete', () =>
      workers.every((worker) => !isVerified(worker.client, STATION)),
    );
    await sandbox.fault({
      method: 'GET',
      path: `/channels/${SANDBOX_IDS.channels.roles}/messages`,
      status: 429,
      count: 1,
      retry_after: 1,
    });
    await addGuildJob(jobs.queues, 'personality-roles.refresh', STATION, null);
    await waitFor('the refresh to read the questions', async () =>
      (await sandbox.faults()).every((fault) => fault.remaining === 0),
    );
    // What the API does on a toggle: store it, then ask for a refresh after the change.
    await harness.database.db
      .update(personalityQuestions)
      .set({ isEnabled: false })
      .where(eq(personalityQuestions.questionType, 'zodiac'));
    await addGuildJob(jobs.queues, 'personality-roles.refresh', STATION, null, { afterChange: true });
    await waitFor('the zodiac message to go', async () => (await zodiacMessage()) === null, 20_000);
    const channel = harness.sandbox.state().guilds.find((g) => g.id === STATION)?.channels;
    const messages = channel?.find((c) => c.id === SANDBOX_IDS.channels.roles)?.messages ?? [];
    expect(messages.some((m) => m.id === posted)).toBe(false);
  });
});
