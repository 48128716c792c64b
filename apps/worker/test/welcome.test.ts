import {
  DEFAULT_WELCOME_SETTINGS,
  type WelcomeSettings,
  welcomeJoinCountKey,
  welcomeRaidKey,
} from '@spacecadet/contract';
import { renderWelcomeMessage } from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import { saveWelcomeSettings } from '@spacecadet/db/queries/welcome';
import { claimRaidBatch } from '@spacecadet/db/queries/welcome-greetings';
import { personalityOptions, personalityQuestions, welcomeGreetings } from '@spacecadet/db/schema';
import { GatewayDispatchEvents } from 'discord.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WELCOME_CARD_FILENAME } from '../src/features/welcome/card.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const WELCOME_CHANNEL = SANDBOX_IDS.channels.general;
const GOODBYE_CHANNEL = SANDBOX_IDS.channels.announcements;
/**
 * Where a test posts by hand beside the worker: a channel of its own, as Discord's 5 messages per
 * 5 s in a channel (which the sandbox enforces) would otherwise answer the hand-made post 429.
 */
const QUIET_CHANNEL = SANDBOX_IDS.channels.levelUps;

describe('welcome and goodbye', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let made = 0;

  const db = () => harness.database.db;
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
  const dmsOf = (userId: string) =>
    api()
      .state()
      .dm_channels.filter((dm) => dm.recipient_id === userId)
      .flatMap((dm) => dm.messages);
  const mentioning = (channelId: string, userId: string) =>
    messagesIn(channelId).filter((m) => m.content.includes(`<@${userId}>`));
  const settings = (values: Partial<WelcomeSettings>) =>
    saveWelcomeSettings(db(), STATION, { ...DEFAULT_WELCOME_SETTINGS, ...values });
  const newUser = async () => {
    made += 1;
    const username = `joiner_${made}_${Date.now().toString(36)}`;
    const { id } = await api().call<{ id: string }>('POST', '/_sandbox/users', { username });
    return { id, username };
  };
  const join = (userId: string) => api().call('PUT', `/_sandbox/guilds/${STATION}/members/${userId}`);
  /** The member's GUILD_MEMBER_ADD or _UPDATE again, as the gateway sends it (a replay, an update). */
  const dispatchMember = (t: GatewayDispatchEvents, userId: string, extra: Record<string, unknown> = {}) => {
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
  };
  const expected = (template: string, members: Array<{ id: string; username: string; answers?: string[] }>) =>
    renderWelcomeMessage(
      'welcome',
      template,
      members.map((m) => ({ userId: m.id, username: m.username, answers: m.answers ?? [] })),
      { server: station().name, memberCount: station().members.length },
    ).content;

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    await worker.gateway;
  });
  beforeEach(async () => {
    await jobs.followUpsDone();
    // Each test's joins are its own burst (or none).
    await resetRaid();
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  async function resetRaid() {
    const { Redis } = await import('ioredis');
    const redis = new Redis(harness.redis.url);
    await redis.del(
      storedKey(harness, welcomeJoinCountKey(STATION)),
      storedKey(harness, welcomeRaidKey(STATION)),
    );
    redis.disconnect();
  }

  it('greets a person who joins in the channel with the rendered text, by DM, with a PNG card', async () => {
    const template = 'Hey {user} ({username}), welcome to {server}! You are #{member_count}.';
    await settings({
      enabled: true,
      channel_id: WELCOME_CHANNEL,
      message: template,
      dm_enabled: true,
      dm_message: 'Psst {username}, glad you came to {server}.',
      card: true,
    });
    const ada = await newUser();
    await join(ada.id);
    const [greeting] = await waitFor('the greeting', () => {
      const found = mentioning(WELCOME_CHANNEL, ada.id);
      return found.length > 0 ? found : undefined;
    });
    expect(greeting?.content).toBe(expected(template, [ada]));
    expect(greeting?.attachments.map((a) => [a.filename, a.content_type])).toEqual([
      [WELCOME_CARD_FILENAME, 'image/png'],
    ]);
    expect(greeting?.attachments[0]?.size).toBeGreaterThan(1000);
    const [dm] = await waitFor('the DM', () => (dmsOf(ada.id).length > 0 ? dmsOf(ada.id) : undefined));
    expect(dm?.content).toBe(`Psst ${ada.username}, glad you came to ${station().name}.`);
    const [row] = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.userId, ada.id));
    expect(row?.messageId).toBe(greeting?.id);
    expect(row?.greetedAt).not.toBeNull();
  });

  it('greets no bot, and a member refusing DMs still gets the channel greeting', async () => {
    await settings({ enabled: true, channel_id: WELCOME_CHANNEL, dm_enabled: true });
    const bot = await api().call<{ id: string }>('POST', '/_sandbox/users', {
      username: 'some_bot',
      bot: true,
    });
    const shy = await newUser();
    await api().call('PUT', `/_sandbox/users/${shy.id}/dms`, { accept: false });
    await join(bot.id);
    await join(shy.id);
    await waitFor('the greeting of the shy member', () => mentioning(WELCOME_CHANNEL, shy.id).length === 1);
    await jobs.followUpsDone();
    expect(dmsOf(shy.id)).toEqual([]);
    expect(mentioning(WELCOME_CHANNEL, bot.id)).toEqual([]);
    const [row] = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.userId, shy.id));
    expect(row?.greetedAt).not.toBeNull();
  });

  it('a replayed join greets once, and the job run again posts nothing new', async () => {
    await settings({ enabled: true, channel_id: WELCOME_CHANNEL });
    const mo = await newUser();
    await join(mo.id);
    await waitFor('the greeting', () => mentioning(WELCOME_CHANNEL, mo.id).length === 1);
    dispatchMember(GatewayDispatchEvents.GuildMemberAdd, mo.id);
    dispatchMember(GatewayDispatchEvents.GuildMemberAdd, mo.id);
    await jobs.finished((await jobs.add('welcome.greet')).id ?? '');
    await jobs.followUpsDone();
    expect(mentioning(WELCOME_CHANNEL, mo.id)).toHaveLength(1);
    const rows = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.userId, mo.id));
    expect(rows).toHaveLength(1);
  });

  it('a greeting posted by a run that died before recording it is not posted again', async () => {
    // Welcome off while kai joins, so only the state the dead run left is there (a join heard
    // after the settings change finds that greeting recorded, and queues nothing).
    await settings({ enabled: false, channel_id: QUIET_CHANNEL, message: 'Hello {user}!' });
    const kai = await newUser();
    await api().call('PUT', `/_sandbox/guilds/${STATION}/members/${kai.id}`);
    await settings({ enabled: true, channel_id: QUIET_CHANNEL, message: 'Hello {user}!' });
    // What the dead run left: the greeting claimed under its nonce, the message made, no record.
    const joinedAt = new Date(station().members.find((m) => m.user_id === kai.id)?.joined_at ?? 0);
    const nonce = messageNonce('welcome', STATION, kai.id, joinedAt.toISOString());
    await db()
      .insert(welcomeGreetings)
      .values({
        guildId: STATION,
        userId: kai.id,
        kind: 'welcome',
        joinedAt,
        username: kai.username,
        answers: [],
        memberCount: 1,
        batch: nonce,
      })
      .onConflictDoUpdate({
        target: [
          welcomeGreetings.guildId,
          welcomeGreetings.userId,
          welcomeGreetings.kind,
          welcomeGreetings.joinedAt,
        ],
        set: { batch: nonce, greetedAt: null, messageId: null },
      });
    const made = await api().botRest<{ id: string }>('POST', `/channels/${QUIET_CHANNEL}/messages`, {
      content: `Hello <@${kai.id}>!`,
      nonce,
      enforce_nonce: true,
    });
    await jobs.finished((await jobs.add('welcome.greet')).id ?? '');
    await jobs.followUpsDone();
    expect(mentioning(QUIET_CHANNEL, kai.id).map((m) => m.id)).toEqual([made.id]);
    const [row] = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.userId, kai.id));
    expect(row?.messageId).toBe(made.id);
  });

  it('a raid batch claimed and posted by a run that died is finished without a second message', async () => {
    await settings({ enabled: true, channel_id: QUIET_CHANNEL, message: 'Welcome {user}!' });
    const crew = await Promise.all([newUser(), newUser(), newUser()]);
    const joinedAt = new Date();
    await db()
      .insert(welcomeGreetings)
      .values(
        crew.map((m) => ({
          guildId: STATION,
          userId: m.id,
          kind: 'welcome' as const,
          joinedAt,
          username: m.username,
          answers: [],
          memberCount: 1,
          raid: true,
        })),
      );
    const claimed = await claimRaidBatch(db(), STATION, 20, (first) =>
      messageNonce('welcome-raid', STATION, first.userId, first.joinedAt.toISOString()),
    );
    if (!claimed) throw new Error('nothing claimed');
    expect(claimed.rows).toHaveLength(3);
    const made = await api().botRest<{ id: string }>('POST', `/channels/${QUIET_CHANNEL}/messages`, {
      content: `Welcome ${claimed.rows.map((r) => `<@${r.userId}>`).join(', ')}!`,
      nonce: claimed.batch,
      enforce_nonce: true,
    });
    await jobs.finished((await jobs.add('welcome.raid-batch')).id ?? '');
    for (const member of crew)
      expect(mentioning(QUIET_CHANNEL, member.id).map((m) => m.id)).toEqual([made.id]);
    const rows = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.batch, claimed.batch));
    expect(rows.map((r) => r.messageId)).toEqual([made.id, made.id, made.id]);
  });

  it('a greeting recorded whose job was lost is posted by the next worker to start', async () => {
    await settings({ enabled: true, channel_id: QUIET_CHANNEL, message: 'Found you, {user}.' });
    const lou = await newUser();
    await db().insert(welcomeGreetings).values({
      guildId: STATION,
      userId: lou.id,
      kind: 'welcome',
      joinedAt: new Date(),
      username: lou.username,
      answers: [],
      memberCount: 1,
    });
    await worker.close();
    worker = await startWorker(harness.config());
    await waitFor('the greeting', () => mentioning(QUIET_CHANNEL, lou.id).length === 1);
    expect(mentioning(QUIET_CHANNEL, lou.id)[0]?.content).toBe(`Found you, <@${lou.id}>.`);
  });

  /** Turns the server's Membership Screening / Onboarding on or off, once the worker sees it. */
  const setFeatures = async (features: string[]) => {
    await api().call('PATCH', `/_sandbox/guilds/${STATION}`, { features });
    await waitFor('the worker to see the features', () => {
      const seen = worker.client.guilds.cache.get(STATION)?.features ?? [];
      return seen.length === features.length && features.every((f) => seen.includes(f as never));
    });
  };
  const complete = (userId: string, change: { pending?: boolean; flags?: number }) =>
    api().call('PATCH', `/_sandbox/guilds/${STATION}/members/${userId}`, change);

  it('onboarding_complete waits for Onboarding, then greets once with the answers picked', async () => {
    const template = 'Welcome {user}! You picked {answers}.';
    await settings({
      enabled: true,
      channel_id: WELCOME_CHANNEL,
      send_when: 'onboarding_complete',
      message: template,
    });
    const [question] = await db()
      .insert(personalityQuestions)
      .values({ guildId: STATION, questionType: 'welcome-test', title: 'When are you up?' })
      .returning();
    if (!question) throw new Error('no question');
    const owl = SANDBOX_IDS.roles.stationCrew;
    await db()
      .insert(personalityOptions)
      .values({ questionId: question.id, guildId: STATION, label: 'Night owl', roleId: owl });
    await setFeatures(['MEMBER_VERIFICATION_GATE_ENABLED', 'GUILD_ONBOARDING']);
    try {
      const nia = await newUser();
      const never = await newUser();
      await join(nia.id);
      await join(never.id);
      await waitFor('both greetings recorded as waiting', async () => {
        const rows = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.awaiting, true));
        return [nia.id, never.id].every((id) => rows.some((r) => r.userId === id));
      });
      // Through Screening but not Onboarding: still waiting.
      await api().call('PUT', `/_sandbox/guilds/${STATION}/members/${nia.id}/roles/${owl}`);
      await complete(nia.id, { pending: false });
      await jobs.followUpsDone();
      expect(mentioning(WELCOME_CHANNEL, nia.id)).toEqual([]);
      // Onboarding done (COMPLETED_ONBOARDING): greeted with the answer, once, whatever follows.
      await complete(nia.id, { flags: 2 });
      const [greeting] = await waitFor('the greeting', () => {
        const found = mentioning(WELCOME_CHANNEL, nia.id);
        return found.length > 0 ? found : undefined;
      });
      expect(greeting?.content).toBe(`Welcome <@${nia.id}>! You picked Night owl.`);
      dispatchMember(GatewayDispatchEvents.GuildMemberUpdate, nia.id, { flags: 2, roles: [owl] });
      await complete(nia.id, { flags: 2 | 8 });
      await jobs.followUpsDone();
      expect(mentioning(WELCOME_CHANNEL, nia.id)).toHaveLength(1);
      // The member who never completes is never greeted.
      expect(mentioning(WELCOME_CHANNEL, never.id)).toEqual([]);
    } finally {
      await setFeatures([]);
      await db().delete(personalityQuestions).where(eq(personalityQuestions.id, question.id));
    }
  });

  it('onboarding_complete on a server with Membership Screening only: greeted once pending is false', async () => {
    await settings({
      enabled: true,
      channel_id: WELCOME_CHANNEL,
      send_when: 'onboarding_complete',
      message: 'Hi {user}.',
    });
    await setFeatures(['MEMBER_VERIFICATION_GATE_ENABLED']);
    try {
      const zed = await newUser();
      await join(zed.id);
      await waitFor('the greeting recorded as waiting', async () => {
        const rows = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.userId, zed.id));
        return rows[0]?.awaiting === true ? true : undefined;
      });
      expect(mentioning(WELCOME_CHANNEL, zed.id)).toEqual([]);
      await complete(zed.id, { pending: false });
      await waitFor('the greeting', () => mentioning(WELCOME_CHANNEL, zed.id).length === 1);
      expect(mentioning(WELCOME_CHANNEL, zed.id)[0]?.content).toBe(`Hi <@${zed.id}>.`);
    } finally {
      await setFeatures([]);
    }
  });

  it('says goodbye once in the goodbye channel when a member leaves, even if the leave is replayed', async () => {
    await settings({
      enabled: false,
      goodbye_enabled: true,
      goodbye_channel_id: GOODBYE_CHANNEL,
      goodbye_message: 'Bye {username}, {server} is {member_count} now.',
    });
    const rex = await newUser();
    await join(rex.id);
    await api().call('DELETE', `/_sandbox/guilds/${STATION}/members/${rex.id}`);
    // The count the worker's gateway cache keeps (this file's replayed joins raised it, as
    // replayed events do on Discord): the goodbye renders what the worker knows.
    const count = await waitFor('the leave to be seen', () =>
      worker.client.guilds.cache.get(STATION)?.members.cache.has(rex.id) === false
        ? worker.client.guilds.cache.get(STATION)?.memberCount
        : undefined,
    );
    const text = `Bye ${rex.username}, ${station().name} is ${count} now.`;
    await waitFor('the goodbye', () => messagesIn(GOODBYE_CHANNEL).some((m) => m.content === text));
    // The same leave heard again (a replayed GUILD_MEMBER_REMOVE): no second goodbye.
    const user = api()
      .state()
      .users.find((u) => u.id === rex.id);
    harness.sandbox.world.dispatch(
      GatewayDispatchEvents.GuildMemberRemove,
      { guild_id: STATION, user },
      STATION,
    );
    await jobs.followUpsDone();
    expect(messagesIn(GOODBYE_CHANNEL).filter((m) => m.content === text)).toHaveLength(1);
  });

  it('a raid of 30 joins: merged messages, every member named exactly once, at most 20 a message', async () => {
    await settings({ enabled: true, channel_id: WELCOME_CHANNEL, message: 'Welcome {user}!' });
    const before = new Set(messagesIn(WELCOME_CHANNEL).map((m) => m.id));
    const requests = () =>
      api().call<Array<{ seq: number; path: string; status: number }>>('GET', '/_sandbox/requests');
    const since = (await requests()).at(-1)?.seq ?? 0;
    const raiders = await Promise.all(Array.from({ length: 30 }, () => newUser()));
    for (const raider of raiders) await join(raider.id);
    const named = (userId: string) =>
      messagesIn(WELCOME_CHANNEL).filter((m) => !before.has(m.id) && m.content.includes(`<@${userId}>`))
        .length;
    await waitFor('every raider greeted', () => raiders.every((r) => named(r.id) >= 1), 120_000);
    await jobs.followUpsDone();
    for (const raider of raiders) expect(named(raider.id), raider.username).toBe(1);
    const posted = messagesIn(WELCOME_CHANNEL).filter((m) => !before.has(m.id));
    const sizes = posted.map((m) => (m.content.match(/<@\d+>/g) ?? []).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20);
    // Merged: fewer messages than members.
    expect(posted.length).toBeLessThan(raiders.length);
    expect(sizes.some((size) => size > 1)).toBe(true);
    // Through the shared rate limiter: Discord never had to answer 429.
    expect((await requests()).filter((r) => r.seq > since && r.status === 429)).toEqual([]);
  });
});
