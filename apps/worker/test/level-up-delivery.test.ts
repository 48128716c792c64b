import { levelingRoles, levelingSettings, memberXp, pendingLevelUps } from '@spacecadet/db/schema';
import type { APIRole } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startChildWorker,
  startHarness,
  waitFor,
} from './helpers.ts';

const { nia } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;
const levelUps = SANDBOX_IDS.channels.levelUps;

let harness: Harness;
/** What a test started, stopped after it (before its harness closes). */
const started: Array<() => Promise<unknown>> = [];

beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  for (const stop of started.splice(0)) await stop();
  await harness?.close();
});

/** One message takes a member to level 1, announced in the level-ups channel. */
async function announceLevelUps(): Promise<void> {
  await harness.database.db.insert(levelingSettings).values({
    guildId: STATION,
    enabled: true,
    xpMin: 100,
    xpMax: 100,
    messageCooldownSec: 0,
    announcementChannel: levelUps,
  });
}

/** The level-ups channel's messages, oldest first. */
const announcements = () =>
  (guildState(harness.sandbox, STATION).channels.find((c) => c.id === levelUps)?.messages ?? []).map(
    (m) => m.content,
  );

describe('a level-up whose worker dies before celebrating it', () => {
  it('is announced once and rewarded by another process (SIGKILL after the XP batch committed)', async () => {
    const sandbox = control(harness.sandbox);
    const db = harness.database.db;
    const reward = await sandbox.botRest<APIRole>('POST', `/guilds/${STATION}/roles`, { name: 'Rookie' });
    await announceLevelUps();
    await db
      .insert(levelingRoles)
      .values({ guildId: STATION, roleName: 'Rookie', levelRequired: 1, roleId: reward.id });
    // The announcement hangs behind a long rate limit: the child is killed while it waits.
    await sandbox.fault({
      method: 'POST',
      path: `/channels/${levelUps}/messages`,
      status: 429,
      count: 1,
      retry_after: 120,
    });
    const child = await startChildWorker(harness);
    started.push(() => child.stop());
    await sandbox.postMessage({ guild_id: STATION, channel_id: general, author_id: nia, content: 'hi' });
    // The batch is committed with its level-up recorded, and the child is announcing it.
    await waitFor(
      'the level-up recorded with the XP',
      async () => (await db.select().from(pendingLevelUps)).length === 1,
      30_000,
    );
    await waitFor(
      'the child to try announcing',
      async () => (await sandbox.faults()).every((f) => f.remaining === 0),
      30_000,
    );
    expect((await db.select().from(memberXp))[0]).toMatchObject({ userId: nia, xp: 100, level: 1 });
    await child.stop('SIGKILL');
    expect(memberRoles(harness.sandbox, STATION, nia)).not.toContain(reward.id);

    const survivor = await startWorker(harness.config());
    started.push(() => survivor.close());
    await waitFor(
      'the level-up delivered',
      async () => (await db.select().from(pendingLevelUps)).length === 0,
      30_000,
    );
    expect(announcements()).toEqual([`🎉 <@${nia}> reached **level 1**!`]);
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(reward.id);
  }, 300_000);
});

describe('a level-up announcement Discord holds back past the delivery lease', () => {
  it('is posted once while a second delivery, finding no announcement yet, posts it too (429s of 4 s)', async () => {
    const sandbox = control(harness.sandbox);
    const db = harness.database.db;
    await announceLevelUps();
    const route = `/channels/${levelUps}/messages`;
    const requests = () => harness.sandbox.world.requests.filter((r) => r.path === route);
    // Discord holds the announcement back (429, retry after 4 s, again and again) past the lease.
    await sandbox.fault({ method: 'POST', path: route, status: 429, count: 1_000, retry_after: 4 });
    const worker = await startWorker(harness.config());
    started.push(() => worker.close());
    await sandbox.postMessage({ guild_id: STATION, channel_id: general, author_id: nia, content: 'hi' });
    // The lease lapses: another delivery looks for the announcement, finds none (it is still
    // waiting) and posts it too. Only then does Discord let the posts through.
    await waitFor(
      'a second delivery to look for the announcement',
      () => requests().some((r) => r.method === 'GET'),
      60_000,
    );
    expect(requests().filter((r) => r.method === 'POST' && r.status === 429).length).toBeGreaterThanOrEqual(
      3,
    );
    await sandbox.clearFaults();
    await waitFor(
      'both deliveries to post',
      () => requests().filter((r) => r.method === 'POST' && r.status === 200).length === 2,
      60_000,
    );
    await waitFor(
      'the level-up delivered',
      async () => (await db.select().from(pendingLevelUps)).length === 0,
      30_000,
    );
    expect(announcements()).toEqual([`🎉 <@${nia}> reached **level 1**!`]);
  }, 300_000);
});
