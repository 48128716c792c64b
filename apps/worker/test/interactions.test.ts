import { colorPanels } from '@spacecadet/db/schema';
import { MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_COLOR_PANEL_MESSAGE } from '../src/commands/colors.ts';
import { GENERIC_ERROR_MESSAGE } from '../src/interactions/router.ts';
import type { ComponentRoute } from '../src/interactions/types.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, jobQueue, SANDBOX_IDS, STATION, startHarness } from './helpers.ts';

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

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config(), { extraComponentRoutes: [exploding] });
    await harness.database.db.insert(colorPanels).values({ guildId: STATION, channelId: rolesChannel });
    const jobs = jobQueue(harness);
    try {
      await jobs.finished((await jobs.add('color-roles.generate')).id ?? '');
      const posted = await jobs.finished((await jobs.add('color-roles.post-panel')).id ?? '');
      expect(posted.state).toBe('completed');
    } finally {
      await jobs.close();
    }
    const [panel] = await harness.database.db.select().from(colorPanels);
    panelMessageId = panel?.messageId ?? '';
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  it('answers a panel click within 3 seconds', async () => {
    const result = await control(harness.sandbox).click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: panelMessageId,
      user_id: nia,
      custom_id: 'color:pick:Red',
    });
    expect(result.responded).toBe(true);
    expect(result.elapsed_ms).toBeLessThan(3000);
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
    expect(next.response?.data?.content).toContain('Blue');
  });

  it('registers /colors at start, which links a member to the posted panel', async () => {
    const sandbox = control(harness.sandbox);
    const registered = await sandbox.botRest<Array<{ name: string }>>(
      'GET',
      `/applications/${SANDBOX_IDS.app}/commands`,
    );
    expect(registered.map((command) => command.name)).toEqual(['colors']);
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
