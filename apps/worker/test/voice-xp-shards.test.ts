import { type ChannelFlags, ChannelType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  FAR_ORBIT,
  fixtureWithFarOrbit,
  type Harness,
  SANDBOX_IDS,
  STATION,
  startHarness,
} from './helpers.ts';
import { featuresOn, inVoice, testMinuteClock, voiceStore } from './voice-xp-helpers.ts';

const { ada, mo, rex } = SANDBOX_IDS.users;
const lounge = SANDBOX_IDS.channels.stationLounge;
/** Far Orbit's voice channel (Far Orbit is on shard 1 of 2, Station on shard 0). */
const FAR_VOICE = '300000000002228230';

describe('voice XP with two shards in two processes', () => {
  let harness: Harness;
  let workers: RunningWorker[] = [];
  let store: ReturnType<typeof voiceStore>;
  const minutes = testMinuteClock();

  beforeAll(async () => {
    const fixture = fixtureWithFarOrbit();
    const far = fixture.guilds.find((guild) => guild.id === FAR_ORBIT.guild);
    if (!far) throw new Error('fixture changed: no Far Orbit');
    far.channels.push({
      id: FAR_VOICE,
      type: ChannelType.GuildVoice,
      guild_id: FAR_ORBIT.guild,
      name: 'Comms',
      position: 1,
      parent_id: null,
      permission_overwrites: [],
      flags: 0 as ChannelFlags,
      nsfw: false,
      last_message_id: null,
      rate_limit_per_user: 0,
      bitrate: 64000,
      user_limit: 0,
      rtc_region: null,
    });
    harness = await startHarness(fixture);
    store = voiceStore(harness);
    workers = await Promise.all(
      ['0', '1'].map((shard) =>
        startWorker(harness.config({ SHARD_IDS: shard, SHARD_COUNT: '2' }), {
          features: featuresOn(minutes.clock),
        }),
      ),
    );
    await Promise.all(workers.map((worker) => worker.gateway));
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await harness?.close();
  });

  it('each guild is counted by the process of its shard, each minute credited once', async () => {
    const [shard0, shard1] = workers as [RunningWorker, RunningWorker];
    for (const guildId of [STATION, FAR_ORBIT.guild]) {
      await store.settings(guildId, {
        enabled: true,
        voiceXpPerMinute: 10,
        voiceMinMembers: 2,
        xpMultiplier: 1,
      });
    }
    await inVoice(harness, shard0.client, { guild_id: STATION, user_id: ada, channel_id: lounge });
    await inVoice(harness, shard0.client, { guild_id: STATION, user_id: mo, channel_id: lounge });
    await inVoice(harness, shard1.client, { guild_id: FAR_ORBIT.guild, user_id: rex, channel_id: FAR_VOICE });
    await inVoice(harness, shard1.client, { guild_id: FAR_ORBIT.guild, user_id: mo, channel_id: FAR_VOICE });
    // Both processes tick every minute; a minute run twice (a late or repeated tick) counts once too.
    for (let minute = 0; minute < 4; minute++) {
      await minutes.nextMinute();
      await minutes.repeatMinute();
    }
    await store.drained(STATION);
    await store.drained(FAR_ORBIT.guild);
    for (const [guildId, userId] of [
      [STATION, ada],
      [STATION, mo],
      [FAR_ORBIT.guild, rex],
      [FAR_ORBIT.guild, mo],
    ] as const) {
      expect(await store.member(guildId, userId), `${userId} in ${guildId}`).toEqual({
        xp: 30,
        level: 0,
        voiceMinutes: 3,
      });
    }
  });
});
