import { jobSchedulerIdFor } from '@spacecadet/contract';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { SnowflakeUtil } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, jobQueue, SANDBOX_IDS, STATION, startHarness, waitFor } from './helpers.ts';

const { ada, mo, nia } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;

describe('changing the message cooldown', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  const xpOf = async (userId: string) => {
    const [row] = await harness.database.db
      .select()
      .from(memberXp)
      .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, userId)));
    return row?.xp ?? 0;
  };
  let lastPosted = 0;
  const post = async (userId: string) => {
    const message = await control(harness.sandbox).postMessage({
      guild_id: STATION,
      channel_id: general,
      author_id: userId,
      content: 'hi',
    });
    lastPosted = SnowflakeUtil.timestampFrom(message.id);
    return message;
  };
  /**
   * Sets the cooldown and waits until the worker has read it: the daily overview channel is
   * toggled in the same write, and the worker makes its scheduler match once it re-read the setup.
   */
  const scheduler = jobSchedulerIdFor('leveling.daily-overview', STATION);
  let withOverview = false;
  const setCooldown = async (messageCooldownSec: number) => {
    withOverview = !withOverview;
    await harness.database.db
      .update(levelingSettings)
      .set({
        messageCooldownSec,
        dailyOverviewChannel: withOverview ? SANDBOX_IDS.channels.announcements : null,
      })
      .where(eq(levelingSettings.guildId, STATION));
    await waitFor(`the worker to read cooldown ${messageCooldownSec}`, async () => {
      const found = (await jobs.queue.getJobSchedulers(0, -1)).some((s) => s.key === scheduler);
      return found === withOverview;
    });
  };
  /**
   * Waits until a message of `probe` (who is not cooling down) posted after ada's is stored:
   * ada's has then been counted or refused.
   */
  const settled = async (probe: string) => {
    const before = await xpOf(probe);
    await post(probe);
    await waitFor(`${probe}’s message stored`, async () => {
      const xp = await xpOf(probe);
      if (xp !== before + 10) throw new Error(`has ${xp} XP, ada ${await xpOf(ada)}`);
      return true;
    });
  };

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
    await harness.database.db
      .insert(levelingSettings)
      .values({ guildId: STATION, enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 0 });
    worker = await startWorker(harness.config());
  });
  afterAll(async () => {
    await worker?.close();
    await jobs?.close();
    await harness?.close();
  });

  it('applies to members already cooling down: lowered from 600 s to 1 s, and raised from 0 to 600 s', async () => {
    await setCooldown(600);
    await post(ada);
    await settled(nia);
    expect(await xpOf(ada)).toBe(10);

    // Lowered: a message 1 s after the last counted one earns, not 600 s after.
    await setCooldown(1);
    const since = lastPosted + 1_000;
    await waitFor('a second past the last message', () => Date.now() > since + 50);
    await post(ada);
    await settled(nia);
    expect(await xpOf(ada)).toBe(20);

    // Raised: with no cooldown ada chats freely; raised to 600 s, her next message waits.
    await setCooldown(0);
    await post(ada);
    await post(ada);
    await settled(nia);
    expect(await xpOf(ada)).toBe(40);
    await setCooldown(600);
    await post(ada);
    await settled(mo);
    expect(await xpOf(ada)).toBe(40);
  }, 60_000);
});
