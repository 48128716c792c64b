import { messageNonce } from '@spacecadet/core/message-nonce';
import { claimRaidBatch } from '@spacecadet/db/queries/welcome-greetings';
import { welcomeGreetings } from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { STATION, waitFor } from './helpers.ts';
import { QUIET_CHANNEL, WELCOME_CHANNEL, welcomeWorld } from './welcome-harness.ts';

describe('welcome: raids, and runs that died', () => {
  const { api, db, join, jobs, mentioning, messagesIn, newUser, restartWorker, settings, station } =
    welcomeWorld();

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
    await jobs().finished((await jobs().add('welcome.greet')).id ?? '');
    await jobs().followUpsDone();
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
    await jobs().finished((await jobs().add('welcome.raid-batch')).id ?? '');
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
    await restartWorker();
    await waitFor('the greeting', () => mentioning(QUIET_CHANNEL, lou.id).length === 1);
    expect(mentioning(QUIET_CHANNEL, lou.id)[0]?.content).toBe(`Found you, <@${lou.id}>.`);
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
    await jobs().followUpsDone();
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
