import { personalityOptions, personalityQuestions, welcomeGreetings } from '@spacecadet/db/schema';
import { GatewayDispatchEvents } from 'discord.js';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WELCOME_CARD_FILENAME } from '../src/features/welcome/card.ts';
import { SANDBOX_IDS, STATION, waitFor } from './helpers.ts';
import { GOODBYE_CHANNEL, WELCOME_CHANNEL, welcomeWorld } from './welcome-harness.ts';

describe('welcome and goodbye', () => {
  const {
    api,
    db,
    dispatchMember,
    dmsOf,
    expected,
    join,
    jobs,
    mentioning,
    messagesIn,
    newUser,
    settings,
    station,
    worker,
    harness,
  } = welcomeWorld();

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
    // The row is finished after the DM is sent: wait for that write, not for the DM alone.
    const row = await waitFor('the greeting recorded', async () => {
      const [found] = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.userId, ada.id));
      return found?.greetedAt ? found : undefined;
    });
    expect(row.messageId).toBe(greeting?.id);
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
    await jobs().followUpsDone();
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
    await jobs().finished((await jobs().add('welcome.greet')).id ?? '');
    await jobs().followUpsDone();
    expect(mentioning(WELCOME_CHANNEL, mo.id)).toHaveLength(1);
    const rows = await db().select().from(welcomeGreetings).where(eq(welcomeGreetings.userId, mo.id));
    expect(rows).toHaveLength(1);
  });

  /** Turns the server's Membership Screening / Onboarding on or off, once the worker sees it. */
  const setFeatures = async (features: string[]) => {
    await api().call('PATCH', `/_sandbox/guilds/${STATION}`, { features });
    await waitFor('the worker to see the features', () => {
      const seen = worker().client.guilds.cache.get(STATION)?.features ?? [];
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
      await jobs().followUpsDone();
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
      await jobs().followUpsDone();
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
      worker().client.guilds.cache.get(STATION)?.members.cache.has(rex.id) === false
        ? worker().client.guilds.cache.get(STATION)?.memberCount
        : undefined,
    );
    const text = `Bye ${rex.username}, ${station().name} is ${count} now.`;
    await waitFor('the goodbye', () => messagesIn(GOODBYE_CHANNEL).some((m) => m.content === text));
    // The same leave heard again (a replayed GUILD_MEMBER_REMOVE): no second goodbye.
    const user = api()
      .state()
      .users.find((u) => u.id === rex.id);
    harness().sandbox.world.dispatch(
      GatewayDispatchEvents.GuildMemberRemove,
      { guild_id: STATION, user },
      STATION,
    );
    await jobs().followUpsDone();
    expect(messagesIn(GOODBYE_CHANNEL).filter((m) => m.content === text)).toHaveLength(1);
  });
});
