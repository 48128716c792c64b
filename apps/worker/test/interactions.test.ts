import { once } from 'node:events';
import { colorPanels } from '@spacecadet/db/schema';
import type { RestRequestRecord } from '@spacecadet/discord-sandbox';
import { Events, MessageFlags } from 'discord.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_COLOR_PANEL_MESSAGE } from '../src/features/color-roles/command.ts';
import { FEATURES } from '../src/features/index.ts';
import { GENERIC_ERROR_MESSAGE, INTERACTION_ANSWER_WINDOW_MS } from '../src/interactions/router.ts';
import type { ComponentRoute } from '../src/interactions/types.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  DEFERRED_CHANNEL_MESSAGE,
  finalAnswer,
  type Harness,
  memberRoles,
  postStationColorPanel,
  SANDBOX_IDS,
  STATION,
  startHarness,
  waitFor,
} from './helpers.ts';

const { roles: rolesChannel } = SANDBOX_IDS.channels;
const nia = SANDBOX_IDS.users.nia;

/** A handler that always throws, plugged in the way a feature's route is. */
const exploding: ComponentRoute = {
  prefix: 'boom:',
  async handle() {
    throw new Error('kaboom');
  },
};

describe('interaction routing', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let panelMessageId: string;
  /** What the worker logged, parsed. */
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });

  beforeAll(async () => {
    // Discord's own answer window: these tests are about it (a replayed click is skipped).
    harness = await startHarness(undefined, { answerWindowMs: INTERACTION_ANSWER_WINDOW_MS });
    worker = await startWorker(harness.config(), {
      logger,
      features: [...FEATURES, { name: 'exploding', components: [exploding] }],
    });
    panelMessageId = await postStationColorPanel(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  it('answers a panel click (within Discord’s 3 s: the sandbox refuses a later answer)', async () => {
    const result = await control(harness.sandbox).click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: panelMessageId,
      user_id: nia,
      custom_id: 'color:pick:Red',
    });
    expect(result.responded).toBe(true);
    expect(result.response?.data?.flags).toBe(MessageFlags.Ephemeral);
  });

  it('answers a failing handler with an ephemeral error and keeps running', async () => {
    const sandbox = control(harness.sandbox);
    const message = await sandbox.botRest<{ id: string }>('POST', `/channels/${rolesChannel}/messages`, {
      content: 'test button',
      components: [{ type: 1, components: [{ type: 2, style: 2, custom_id: 'boom:1', label: 'Boom' }] }],
    });
    const failed = await sandbox.click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: message.id,
      user_id: nia,
      custom_id: 'boom:1',
    });
    expect(failed.responded).toBe(true);
    expect(failed.response?.data).toMatchObject({
      content: GENERIC_ERROR_MESSAGE,
      flags: MessageFlags.Ephemeral,
    });

    expect(worker.client.isReady()).toBe(true);
    const next = await sandbox.click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: panelMessageId,
      user_id: nia,
      custom_id: 'color:pick:Blue',
    });
    expect(next.responded).toBe(true);
    expect(await finalAnswer(harness.sandbox, next)).toContain('Blue');
  });

  it('tells the member something went wrong when a role change fails after the click was answered', async () => {
    const sandbox = control(harness.sandbox);
    // Discord fails every try of the role add (discord.js retries a 500 three times).
    await sandbox.fault({
      method: 'PUT',
      path: `/guilds/${STATION}/members/${nia}/roles/`,
      status: 500,
      count: 4,
    });
    try {
      const click = await sandbox.click({
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: panelMessageId,
        user_id: nia,
        custom_id: 'color:pick:Pink',
      });
      expect(click.response).toMatchObject({
        type: DEFERRED_CHANNEL_MESSAGE,
        data: { flags: MessageFlags.Ephemeral },
      });
      expect(await finalAnswer(harness.sandbox, click)).toBe(GENERIC_ERROR_MESSAGE);
      // Every try failed: the error is the role change's, not the answer's.
      expect((await sandbox.faults()).map((fault) => fault.remaining)).toEqual([0]);
    } finally {
      await sandbox.clearFaults();
    }
  });

  it('skips a click replayed after its 3 s window without calling Discord', async () => {
    const sandbox = control(harness.sandbox);
    const requests = async () =>
      (await (await fetch(`${harness.sandbox.url}/_sandbox/requests`)).json()) as RestRequestRecord[];
    const seqBefore = (await requests()).at(-1)?.seq ?? 0;
    const rolesBefore = memberRoles(harness.sandbox, STATION, nia);

    // The click happens while the bot is disconnected: no answer comes (the member sees "This
    // interaction failed"), and the sandbox keeps the event for the RESUME.
    await sandbox.closeGateway({ code: 4000, hold: true });
    const stale = await sandbox.click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: panelMessageId,
      user_id: nia,
      custom_id: 'color:pick:Green',
    });
    expect(stale.responded).toBe(false);
    const resumed = once(worker.client, Events.ShardResume);
    await fetch(`${harness.sandbox.url}/_sandbox/gateway/release`, { method: 'POST' });
    await resumed;

    const aboutTheClick = (request: RestRequestRecord) =>
      request.seq > seqBefore &&
      (request.path.includes(stale.interaction_id) || request.path.includes(`/members/${nia}/roles/`));
    const outcome = await waitFor('the replayed click to be skipped (or acted on)', async () => {
      const skipped = logs.some(
        (line) =>
          line.interactionId === stale.interaction_id &&
          line.msg === 'interaction skipped: delivered after its answer window',
      );
      if (skipped) return 'skipped';
      const calls = (await requests()).filter(aboutTheClick);
      return calls.length > 0 ? calls : undefined;
    });
    expect(outcome).toBe('skipped');
    expect((await requests()).filter(aboutTheClick)).toEqual([]);
    expect(memberRoles(harness.sandbox, STATION, nia)).toEqual(rolesBefore);
  });

  it('registers /colors at start, which links a member to the posted panel', async () => {
    const sandbox = control(harness.sandbox);
    const registered = await sandbox.botRest<Array<{ name: string }>>(
      'GET',
      `/applications/${SANDBOX_IDS.app}/commands`,
    );
    expect(registered.map((command) => command.name)).toContain('colors');
    const answer = await sandbox.command({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.general,
      user_id: nia,
      name: 'colors',
    });
    expect(answer.responded).toBe(true);
    expect(answer.response?.data?.flags).toBe(MessageFlags.Ephemeral);
    expect(answer.response?.data?.content).toContain(
      `https://discord.com/channels/${STATION}/${rolesChannel}/${panelMessageId}`,
    );
  });

  it('answers /colors with how to get a panel when none is posted', async () => {
    await harness.database.db.update(colorPanels).set({ messageId: null, messageChannelId: null });
    const answer = await control(harness.sandbox).command({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.general,
      user_id: nia,
      name: 'colors',
    });
    expect(answer.response?.data?.content).toBe(NO_COLOR_PANEL_MESSAGE);
  });
});
