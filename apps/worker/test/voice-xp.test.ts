import { Status } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, guildState, type Harness, SANDBOX_IDS, STATION, startHarness, waitFor } from './helpers.ts';
import { featuresOn, inVoice, testMinuteClock, voiceStore } from './voice-xp-helpers.ts';

const { ada, mo, nia } = SANDBOX_IDS.users;
const { stationLounge: lounge, stationBriefing: briefing, stationAfk: afk, levelUps } = SANDBOX_IDS.channels;

describe('members earning XP in voice', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let store: ReturnType<typeof voiceStore>;
  const minutes = testMinuteClock();
  const inVoiceNow = new Set<string>();
  /** More Station members: `extra[i]` are people (and the last one a bot) made for these tests. */
  const extra: string[] = [];

  const start = async () => {
    worker = await startWorker(harness.config(), { features: featuresOn(minutes.clock) });
    await worker.gateway;
  };
  const voice = async (
    userId: string,
    channelId: string | null,
    mutes: { self_mute?: boolean; self_deaf?: boolean } = {},
  ) => {
    await inVoice(harness, worker.client, {
      guild_id: STATION,
      user_id: userId,
      channel_id: channelId,
      ...mutes,
    });
    if (channelId) inVoiceNow.add(userId);
    else inVoiceNow.delete(userId);
  };
  /** Ends `count` minutes, then waits until what they credited is in Postgres. */
  const passMinutes = async (count: number) => {
    for (let i = 0; i < count; i++) await minutes.nextMinute();
    await store.drained(STATION);
  };

  beforeAll(async () => {
    harness = await startHarness();
    store = voiceStore(harness);
    const sandbox = control(harness.sandbox);
    for (const [username, bot] of [
      ['vox1', false],
      ['vox2', false],
      ['vox3', false],
      ['vox4', false],
      ['voxbot', true],
    ] as const) {
      const user = await sandbox.call<{ id: string }>('POST', '/_sandbox/users', { username, bot });
      await sandbox.call('PUT', `/_sandbox/guilds/${STATION}/members/${user.id}`);
      extra.push(user.id);
    }
    await start();
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });
  beforeEach(async () => {
    for (const userId of [...inVoiceNow]) await voice(userId, null);
    await passMinutes(1);
    await store.clear();
    await store.settings(STATION, {
      enabled: true,
      voiceXpPerMinute: 50,
      voiceMinMembers: 2,
      xpMultiplier: 1,
      noXpChannels: [briefing],
      announcementChannel: levelUps,
      levelUpDestination: 'channel',
    });
  });

  it('credits each full minute with company, once per minute, and levels up as chat does', async () => {
    await voice(ada, lounge);
    await voice(mo, lounge);
    // They joined during this minute: it is not a full one.
    await passMinutes(1);
    expect(await store.member(STATION, ada)).toEqual({ xp: 0, level: 0, voiceMinutes: 0 });
    await passMinutes(1);
    expect(await store.member(STATION, ada)).toEqual({ xp: 50, level: 0, voiceMinutes: 1 });
    await minutes.nextMinute();
    // The same minute counted again (a tick that ran twice, or a second process) credits nothing.
    await minutes.repeatMinute();
    await store.drained(STATION);
    expect(await store.member(STATION, ada)).toEqual({ xp: 100, level: 1, voiceMinutes: 2 });
    expect(await store.member(STATION, mo)).toEqual({ xp: 100, level: 1, voiceMinutes: 2 });
    await waitFor(
      'the level-up to be announced',
      () =>
        guildState(harness.sandbox, STATION)
          .channels.find((c) => c.id === levelUps)
          ?.messages.some((m) => m.content?.includes(`<@${ada}>`)) || undefined,
    );
  });

  it("announces a level reached in voice in that voice channel's chat when level-ups go to the current channel", async () => {
    await store.settings(STATION, { levelUpDestination: 'current' });
    await voice(ada, lounge);
    await voice(mo, lounge);
    await passMinutes(3);
    expect(await store.member(STATION, ada)).toEqual({ xp: 100, level: 1, voiceMinutes: 2 });
    await waitFor(
      'the level-up in the voice channel',
      () =>
        guildState(harness.sandbox, STATION)
          .channels.find((c) => c.id === lounge)
          ?.messages.some((m) => m.content?.includes(`<@${ada}>`)) || undefined,
    );
  });

  it('credits nothing alone, muted, deafened, in the AFK channel or a no-XP channel, nor to bots', async () => {
    const [vox1, vox2, vox3, vox4, voxbot] = extra as [string, string, string, string, string];
    await voice(ada, lounge);
    await voice(mo, lounge, { self_mute: true });
    await voice(vox1, lounge, { self_deaf: true });
    await voice(voxbot, lounge);
    await voice(nia, briefing);
    await voice(vox2, briefing);
    await voice(vox3, afk);
    await voice(vox4, afk);
    await passMinutes(3);
    // Ada earns (muted and deafened people are company); nobody else does.
    expect(await store.member(STATION, ada)).toEqual({ xp: 100, level: 1, voiceMinutes: 2 });
    for (const userId of [mo, vox1, voxbot, nia, vox2, vox3, vox4]) {
      expect(await store.member(STATION, userId), userId).toEqual({ xp: 0, level: 0, voiceMinutes: 0 });
    }
    // Alone with a bot: nothing more.
    await voice(mo, null);
    await voice(vox1, null);
    await passMinutes(3);
    expect(await store.member(STATION, ada)).toEqual({ xp: 100, level: 1, voiceMinutes: 2 });
  });

  it('credits nothing when voice XP is off, and the multiplier applies', async () => {
    await store.settings(STATION, { voiceXpPerMinute: 0 });
    await voice(ada, lounge);
    await voice(mo, lounge);
    await passMinutes(3);
    expect(await store.member(STATION, ada)).toEqual({ xp: 0, level: 0, voiceMinutes: 0 });
    await store.settings(STATION, { voiceXpPerMinute: 20, xpMultiplier: 1.5 });
    await passMinutes(1);
    expect(await store.member(STATION, ada)).toEqual({ xp: 30, level: 0, voiceMinutes: 1 });
  });

  it('credits nothing while the gateway is down (who leaves is unseen), and goes on from what it missed', async () => {
    await voice(ada, lounge);
    await voice(mo, lounge);
    await passMinutes(2);
    expect(await store.member(STATION, ada)).toEqual({ xp: 50, level: 0, voiceMinutes: 1 });
    const sandbox = control(harness.sandbox);
    await sandbox.closeGateway({ hold: true });
    await waitFor('the shard to be down', () =>
      worker.client.ws.shards.get(0)?.status !== Status.Ready ? true : undefined,
    );
    // Mo leaves while the worker cannot see it: Ada is alone from here on.
    await sandbox.call('POST', '/_sandbox/voice', { guild_id: STATION, user_id: mo, channel_id: null });
    inVoiceNow.delete(mo);
    await passMinutes(2);
    expect(await store.member(STATION, ada)).toEqual({ xp: 50, level: 0, voiceMinutes: 1 });
    await sandbox.call('POST', '/_sandbox/gateway/release');
    await waitFor('the shard to be back', () =>
      worker.client.ws.shards.get(0)?.status === Status.Ready ? true : undefined,
    );
    await passMinutes(2);
    expect(await store.member(STATION, ada)).toEqual({ xp: 50, level: 0, voiceMinutes: 1 });
  });

  it('keeps every counted minute through a restart and credits nothing for the time the worker was away', async () => {
    await voice(ada, lounge);
    await voice(mo, lounge);
    await passMinutes(3);
    expect(await store.member(STATION, ada)).toEqual({ xp: 100, level: 1, voiceMinutes: 2 });
    await worker.close();
    // Ten minutes without a worker: they are still in voice, but nobody saw them.
    minutes.skip(10 * 60_000);
    await start();
    // The worker saw them from its start, during this minute: it is not a full one.
    await passMinutes(1);
    expect(await store.member(STATION, ada)).toEqual({ xp: 100, level: 1, voiceMinutes: 2 });
    await passMinutes(1);
    expect(await store.member(STATION, ada)).toEqual({ xp: 150, level: 1, voiceMinutes: 3 });
    expect(await store.member(STATION, mo)).toEqual({ xp: 150, level: 1, voiceMinutes: 3 });
  });
});
