import { colors } from '@spacecadet/db/schema';
import type { RestRequestRecord } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  DEFERRED_CHANNEL_MESSAGE,
  type Harness,
  memberRoles,
  postStationColorPanel,
  SANDBOX_IDS,
  STATION,
  startHarness,
  stationWithCrowd,
  waitFor,
} from './helpers.ts';

/** More clicks at once than three windows of Discord's global 50 requests a second. */
const CLICKS = 150;
const GLOBAL_LIMIT = 50;
const CLICK_EVERY_MS = 5;
const { fixture, crowd } = stationWithCrowd('2200000000', CLICKS, 'cadet');

describe('member clicks under the global rate limit', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let panelMessageId = '';

  beforeAll(async () => {
    harness = await startHarness(fixture);
    worker = await startWorker(harness.config());
    panelMessageId = await postStationColorPanel(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  it('answers every click before its role change while the changes queue for seconds, and every change lands', async () => {
    const sandbox = control(harness.sandbox);
    const world = harness.sandbox.world;
    const palette = await harness.database.db
      .select({ name: colors.name, roleId: colors.roleId })
      .from(colors);
    const picks = crowd.map((userId, i) => ({ userId, color: palette[i % palette.length] }));
    const seqBefore = world.requests.at(-1)?.seq ?? 0;
    await setGlobalLimit(GLOBAL_LIMIT);
    try {
      // 200 clicks a second, each sent on schedule without waiting for earlier answers: four
      // times what the bot may change in a second.
      const clicks = await Promise.all(
        picks.map(async ({ userId, color }, i) => {
          await new Promise((resolve) => setTimeout(resolve, i * CLICK_EVERY_MS));
          return sandbox.click({
            guild_id: STATION,
            channel_id: SANDBOX_IDS.channels.roles,
            message_id: panelMessageId,
            user_id: userId,
            custom_id: `color:pick:${color?.name}`,
          });
        }),
      );
      // One poll of the sandbox's live state for all of them (150 polling loops would load the
      // process this test measures).
      const records = await waitFor(
        'every outcome edited into its answer',
        () => {
          const found = clicks.map((click) => world.interactions.get(click.interaction_id));
          return found.every((record) => record?.original?.content) ? found : undefined;
        },
        30_000,
      );
      const landed = world.requests.filter(
        (request: RestRequestRecord) =>
          request.seq > seqBefore &&
          request.method === 'PUT' &&
          request.status === 204 &&
          /^\/guilds\/\d+\/members\/\d+\/roles\/\d+$/.test(request.path),
      );
      const queuedForMs = Date.parse(landed.at(-1)?.at ?? '') - Date.parse(landed[0]?.at ?? '');

      // The role changes really queued: 150 at 50 a second take more than two seconds.
      expect(landed).toHaveLength(CLICKS);
      expect(queuedForMs).toBeGreaterThan(2000);
      for (const click of clicks) {
        expect(click.responded).toBe(true);
        expect(click.response).toMatchObject({ type: DEFERRED_CHANNEL_MESSAGE, data: { flags: 64 } });
      }
      for (const [i, { userId, color }] of picks.entries()) {
        const record = records[i];
        const change = landed.find((request) => request.path.includes(`/members/${userId}/roles/`));
        const changedAt = Date.parse(change?.at ?? '');
        // Answered before its own role change, let alone the others queued ahead of it; the
        // outcome edited in after it. (How soon each comes is `pnpm bench click-latency`'s: the
        // first answer, and the edit lag, whose p90 stood here as under 250 ms.)
        expect(record?.responded_ms).toBeLessThanOrEqual(changedAt);
        const edit = record?.edits.find((candidate) => candidate.target === '@original');
        expect(Date.parse(edit?.at ?? '')).toBeGreaterThanOrEqual(changedAt);
        expect(record?.original?.content).toBe(`You now have the **${color?.name}** color.`);
        expect(memberRoles(harness.sandbox, STATION, userId)).toContain(color?.roleId);
      }
    } finally {
      await setGlobalLimit(null);
    }
  });

  const setGlobalLimit = async (perSecond: number | null) => {
    const response = await fetch(`${harness.sandbox.url}/_sandbox/global-rate-limit`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ per_second: perSecond }),
    });
    expect(response.status).toBe(200);
  };
});
