import { jobIdFor } from '@spacecadet/contract';
import { saveReactionListChannel, saveReactionLists } from '@spacecadet/db/queries/role-menus';
import { roleMenus } from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  type ChildWorker,
  control,
  guildState,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startChildWorker,
  startHarness,
  waitFor,
} from './helpers.ts';

const FRUITS = [...'🍎🍌🍇🍉🍒🍑🍍🥝🥥🥑🍆🥕🌽🥦🍄🥜🌰🍞🥐🥖🧀🥚🍳🥞🥓'];
const channel = SANDBOX_IDS.channels.general;

describe('a worker killed with SIGKILL in the middle of reaction-roles.post-panel', () => {
  let harness: Harness;
  let child: ChildWorker | undefined;
  let survivor: RunningWorker | undefined;
  let jobs: ReturnType<typeof jobQueue>;

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await child?.stop();
    await survivor?.close();
    await jobs?.close();
    await harness.close();
  });

  it('is taken over and leaves one panel: two messages with 20 and 5 reactions', async () => {
    const sandbox = control(harness.sandbox);
    const roleIds: string[] = [];
    for (const [i] of FRUITS.entries()) {
      roleIds.push(
        (await sandbox.botRest<{ id: string }>('POST', `/guilds/${STATION}/roles`, { name: `F${i}` })).id,
      );
    }
    child = await startChildWorker(harness, { LOG_LEVEL: 'warn' });
    const { db } = harness.database;
    await saveReactionLists(
      db,
      STATION,
      { color_roles: [], personality_roles: roleIds.map((role_id, i) => ({ role_id, emoji: FRUITS[i] })) },
      SANDBOX_IDS.users.ada,
    );
    await saveReactionListChannel(db, STATION, 'personality_roles', channel, SANDBOX_IDS.users.ada);
    // Discord holds every reaction for a minute: the child posts the first message, then waits.
    await sandbox.fault({
      method: 'PUT',
      path: `/channels/${channel}/messages/`,
      status: 429,
      count: 1000,
      retry_after: 60,
    });
    const jobId = jobIdFor('reaction-roles.post-panel', STATION);
    await jobs.add('reaction-roles.post-panel');
    await waitFor('the child to be held mid-post', async () =>
      (await sandbox.faults()).some((fault) => fault.remaining < 1000),
    );
    const panels = () =>
      (guildState(harness.sandbox, STATION).channels.find((c) => c.id === channel)?.messages ?? []).filter(
        (message) => message.embeds[0]?.title?.startsWith('Personality Roles'),
      );
    expect(panels()).toHaveLength(1);

    survivor = await startWorker(harness.config());
    expect(await jobs.queue.getJobState(jobId)).toBe('active');
    await child.stop('SIGKILL');
    await sandbox.clearFaults();

    const outcome = await jobs.finished(jobId, 60_000);
    expect(outcome.state, outcome.error).toBe('completed');
    expect(outcome.job.attemptsStarted).toBeGreaterThanOrEqual(2);
    const posted = panels();
    expect(posted.map((message) => message.embeds[0]?.title)).toEqual([
      'Personality Roles (1/2)',
      'Personality Roles (2/2)',
    ]);
    const [menu] = await db.select().from(roleMenus).where(eq(roleMenus.listKey, 'personality_roles'));
    expect(menu?.messageIds).toEqual(posted.map((message) => message.id));
    expect(posted.map((message) => (message.reactions ?? []).filter((r) => r.me).length)).toEqual([20, 5]);
  });
});
