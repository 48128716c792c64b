/**
 * What the welcome tests share: a sandbox, a database and a worker per file, the channels they
 * greet in, members made and joined through the sandbox, and reads of what the bot posted.
 */
import {
  DEFAULT_WELCOME_SETTINGS,
  type WelcomeSettings,
  welcomeJoinCountKey,
  welcomeRaidKey,
} from '@spacecadet/contract';
import { renderWelcomeMessage } from '@spacecadet/core';
import { saveWelcomeSettings } from '@spacecadet/db/queries/welcome';
import type { GatewayDispatchEvents } from 'discord.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, jobQueue, SANDBOX_IDS, STATION, startHarness, storedKey } from './helpers.ts';

export const WELCOME_CHANNEL = SANDBOX_IDS.channels.general;
export const GOODBYE_CHANNEL = SANDBOX_IDS.channels.announcements;
/**
 * Where a test posts by hand beside the worker: a channel of its own, as Discord's 5 messages per
 * 5 s in a channel (which the sandbox enforces) would otherwise answer the hand-made post 429.
 */
export const QUIET_CHANNEL = SANDBOX_IDS.channels.levelUps;

/** Starts the world before the file's tests (hooks of the calling `describe`) and gives its helpers. */
export function welcomeWorld() {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let made = 0;

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    await worker.gateway;
  });
  beforeEach(async () => {
    await jobs.followUpsDone();
    // Each test's joins are its own burst (or none).
    const redis = new Redis(harness.redis.url);
    await redis.del(
      storedKey(harness, welcomeJoinCountKey(STATION)),
      storedKey(harness, welcomeRaidKey(STATION)),
    );
    redis.disconnect();
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  const api = () => control(harness.sandbox);
  const station = () => {
    const guild = api()
      .state()
      .guilds.find((g) => g.id === STATION);
    if (!guild) throw new Error('no station');
    return guild;
  };
  const messagesIn = (channelId: string) =>
    station().channels.find((c) => c.id === channelId)?.messages ?? [];
  return {
    harness: () => harness,
    worker: () => worker,
    jobs: () => jobs,
    db: () => harness.database.db,
    api,
    station,
    messagesIn,
    dmsOf: (userId: string) =>
      api()
        .state()
        .dm_channels.filter((dm) => dm.recipient_id === userId)
        .flatMap((dm) => dm.messages),
    mentioning: (channelId: string, userId: string) =>
      messagesIn(channelId).filter((m) => m.content.includes(`<@${userId}>`)),
    settings: (values: Partial<WelcomeSettings>) =>
      saveWelcomeSettings(harness.database.db, STATION, { ...DEFAULT_WELCOME_SETTINGS, ...values }),
    async newUser() {
      made += 1;
      const username = `joiner_${made}_${Date.now().toString(36)}`;
      const { id } = await api().call<{ id: string }>('POST', '/_sandbox/users', { username });
      return { id, username };
    },
    join: (userId: string) => api().call('PUT', `/_sandbox/guilds/${STATION}/members/${userId}`),
    /** A worker stopped and another started (a restart, a deploy). */
    async restartWorker() {
      await worker.close();
      worker = await startWorker(harness.config());
    },
    /** The member's GUILD_MEMBER_ADD or _UPDATE again, as the gateway sends it (a replay, an update). */
    dispatchMember(t: GatewayDispatchEvents, userId: string, extra: Record<string, unknown> = {}) {
      const member = station().members.find((m) => m.user_id === userId);
      const user = api()
        .state()
        .users.find((u) => u.id === userId);
      if (!member || !user) throw new Error('no such member');
      harness.sandbox.world.dispatch(
        t,
        {
          guild_id: STATION,
          user,
          nick: null,
          avatar: null,
          roles: member.roles,
          joined_at: member.joined_at,
          premium_since: null,
          deaf: false,
          mute: false,
          flags: 0,
          pending: false,
          ...extra,
        },
        STATION,
      );
    },
    /** What core renders for these members in the station now. */
    expected: (template: string, members: Array<{ id: string; username: string }>) =>
      renderWelcomeMessage(
        'welcome',
        template,
        members.map((m) => ({ userId: m.id, username: m.username })),
        { server: station().name, memberCount: station().members.length },
      ).content,
  };
}
