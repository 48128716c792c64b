import {
  type JobName,
  jobIdFor,
  MESSAGES,
  type PersonalityRolesState,
  personalityLastRefreshKey,
  routePath,
  routes,
} from '@spacecadet/contract';
import { PERSONALITY_CATALOG } from '@spacecadet/core';
import { personalityCleanup, personalityOptions, personalityQuestions } from '@spacecadet/db';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE_FIRST_MESSAGE } from '../src/services/personality-roles.ts';
import { appWithRedisDown, CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
const guildId = GUILDS.station;
const path = (name: keyof typeof routes, extra: Record<string, string> = {}) =>
  routePath(routes[name], { guildId, ...extra });

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, app: FastifyInstance = h.app) {
  return app.inject({ method, url, headers: { authorization: ada }, ...(payload ? { payload } : {}) });
}

const getState = async () => (await send('GET', path('getPersonalityRoles'))).json<PersonalityRolesState>();
/** The BullMQ state of the guild's job of that name ('unknown' when there is none). */
const jobState = (name: JobName) => h.app.services.queue.forShard(0).getJobState(jobIdFor(name, guildId));
/** Forgets the guild's job of that name, so a test can see whether a request queues it again. */
const forgetJob = async (name: JobName) => {
  await h.app.services.queue.forShard(0).remove(jobIdFor(name, guildId));
  expect(await jobState(name)).toBe('unknown');
};

async function expectInvalid(response: Awaited<ReturnType<typeof send>>, message: string) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ error: 'invalid_input', message });
}

/** A port nothing listens on: bind, read the port, close. */
// One guild through its life: the tests run in order and each starts where the last one ended.
describe('personality roles, from nothing to reset', () => {
  it('refuses generate and post before a channel, then before Initialize', async () => {
    for (const name of ['generatePersonalityRoles', 'postPersonalityMessages'] as const) {
      await expectInvalid(await send('POST', path(name)), MESSAGES.selectChannelFirst);
    }
    const channel = await send('PUT', path('setPersonalityChannel'), { channel_id: CHANNELS.roles });
    expect(channel.json()).toEqual({ channel_id: CHANNELS.roles });
    // Not set up yet: the channel is kept for Initialize, and there is nothing to refresh.
    expect(await jobState('personality-roles.refresh')).toBe('unknown');
    for (const name of ['generatePersonalityRoles', 'postPersonalityMessages'] as const) {
      await expectInvalid(await send('POST', path(name)), INITIALIZE_FIRST_MESSAGE);
    }
    expect(await jobState('personality-roles.generate')).toBe('unknown');
    expect(await jobState('personality-roles.post')).toBe('unknown');
  });

  it('refuses the Discord Onboarding switch before Initialize', async () => {
    for (const enabled of [true, false]) {
      await expectInvalid(
        await send('PUT', path('setPersonalityOnboarding'), { enabled }),
        INITIALIZE_FIRST_MESSAGE,
      );
    }
    expect(await jobState('personality-roles.onboarding')).toBe('unknown');
  });

  it('initializes the catalog, answers it with no refresh run yet, and queues a refresh', async () => {
    const init = await send('POST', path('initPersonalityRoles'), { channel_id: CHANNELS.roles });
    expect(init.statusCode, init.body).toBe(200);
    const state = await getState();
    expect(init.json()).toEqual(state);
    expect(state).toMatchObject({
      configured: true,
      assign_channel_id: CHANNELS.roles,
      last_refresh: null,
      onboarding: false,
    });
    expect(state.questions).toHaveLength(10);
    // role_count is the number of options stored for the question: the catalog's, as seeded.
    expect(state.questions.map((q) => [q.question_type, q.role_count])).toEqual(
      PERSONALITY_CATALOG.map((q) => [q.questionType, q.options.length]),
    );
    expect(await jobState('personality-roles.refresh')).toBe('waiting');
  });

  it('queues a refresh when the channel changes once set up', async () => {
    await forgetJob('personality-roles.refresh');
    const channel = await send('PUT', path('setPersonalityChannel'), { channel_id: CHANNELS.general });
    expect(channel.statusCode, channel.body).toBe(200);
    expect(await jobState('personality-roles.refresh')).toBe('waiting');
    expect((await getState()).assign_channel_id).toBe(CHANNELS.general);
  });

  it('queues a refresh when a question is toggled; an unknown question stays 404', async () => {
    await forgetJob('personality-roles.refresh');
    const toggle = await send('PUT', path('togglePersonalityQuestion', { question_type: 'zodiac' }), {
      enabled: false,
    });
    expect(toggle.statusCode, toggle.body).toBe(200);
    const zodiac = PERSONALITY_CATALOG.find((q) => q.questionType === 'zodiac');
    const answered = toggle.json<PersonalityRolesState['questions'][number]>();
    expect(answered.options.map((o) => [o.label, o.role_id, o.role_created, o.channel_ids])).toEqual(
      zodiac?.options.map((o) => [o.label, null, false, []]),
    );
    expect({ ...answered, question_id: undefined, options: undefined }).toEqual({
      question_id: undefined,
      options: undefined,
      question_type: 'zodiac',
      title: zodiac?.title,
      description: zodiac?.description,
      role_count: zodiac?.options.length,
      is_multi_select: zodiac?.isMultiSelect,
      is_enabled: false,
      created_roles: 0,
      message_posted: false,
      in_onboarding: false,
    });
    expect(await jobState('personality-roles.refresh')).toBe('waiting');
    expect((await getState()).questions.find((q) => q.question_type === 'zodiac')?.is_enabled).toBe(false);

    await forgetJob('personality-roles.refresh');
    const unknown = await send('PUT', path('togglePersonalityQuestion', { question_type: 'astrology' }), {
      enabled: true,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found' });
    expect(await jobState('personality-roles.refresh')).toBe('unknown');
  });

  it('answers the last refresh the worker recorded, and none for a record that does not parse', async () => {
    const record = {
      ran_at: '2026-11-24T02:00:00.000Z',
      summary: '2 roles created, 1 message re-posted.',
      repaired: 3,
    };
    const key = personalityLastRefreshKey(guildId);
    await h.app.services.redis.set(key, JSON.stringify(record));
    expect((await getState()).last_refresh).toEqual(record);
    await h.app.services.redis.set(key, '{"ran_at":"yesterday"}');
    expect((await getState()).last_refresh).toBeNull();
    await h.app.services.redis.del(key);
  });

  it('queues generate and post once set up', async () => {
    const generate = await send('POST', path('generatePersonalityRoles'));
    expect(generate.statusCode, generate.body).toBe(202);
    expect(generate.json()).toEqual({ job_id: jobIdFor('personality-roles.generate', guildId) });
    const post = await send('POST', path('postPersonalityMessages'));
    expect(post.statusCode, post.body).toBe(202);
    expect(post.json()).toEqual({ job_id: jobIdFor('personality-roles.post', guildId) });
  });

  it('stores the Discord Onboarding switch and queues its job each time', async () => {
    const on = await send('PUT', path('setPersonalityOnboarding'), { enabled: true });
    expect(on.statusCode, on.body).toBe(202);
    expect(on.json()).toEqual({ job_id: jobIdFor('personality-roles.onboarding', guildId) });
    expect(await jobState('personality-roles.onboarding')).toBe('waiting');
    expect((await getState()).onboarding).toBe(true);

    await forgetJob('personality-roles.onboarding');
    const off = await send('PUT', path('setPersonalityOnboarding'), { enabled: false });
    expect(off.statusCode, off.body).toBe(202);
    expect(await jobState('personality-roles.onboarding')).toBe('waiting');
    expect((await getState()).onboarding).toBe(false);

    await forgetJob('personality-roles.onboarding');
    for (const payload of [{}, { enabled: 'yes' }, { enabled: true, extra: 1 }]) {
      const bad = await send('PUT', path('setPersonalityOnboarding'), payload);
      expect(bad.statusCode, `${JSON.stringify(payload)}: ${bad.body}`).toBe(400);
    }
    expect(await jobState('personality-roles.onboarding')).toBe('unknown');
    expect((await getState()).onboarding).toBe(false);
    // Left on for the reset below, with a prompt the bot made.
    await send('PUT', path('setPersonalityOnboarding'), { enabled: true });
  });

  it('reset answers not configured at once, queues the cleanup and the reset job', async () => {
    const db = h.database.db;
    const roleId = '300000000000000099';
    const messageId = '400000000000000099';
    const promptId = '500000000000000099';
    const [option] = await db
      .select({ id: personalityOptions.id })
      .from(personalityOptions)
      .where(eq(personalityOptions.guildId, guildId))
      .orderBy(asc(personalityOptions.id))
      .limit(1);
    await db
      .update(personalityOptions)
      .set({ roleId })
      .where(eq(personalityOptions.id, option?.id ?? 0));
    await db
      .update(personalityQuestions)
      .set({ messageId, messageChannelId: CHANNELS.general, onboardingPromptId: promptId })
      .where(
        and(eq(personalityQuestions.guildId, guildId), eq(personalityQuestions.questionType, 'pronouns')),
      );

    const reset = await send('POST', path('resetPersonalityRoles'));
    expect(reset.statusCode, reset.body).toBe(202);
    expect(reset.json()).toEqual({ job_id: jobIdFor('personality-roles.reset', guildId) });
    expect(await jobState('personality-roles.reset')).toBe('waiting');

    // No worker ran: the screen is back to Initialize anyway, channel kept, refresh record gone.
    expect(await getState()).toEqual({
      configured: false,
      assign_channel_id: CHANNELS.general,
      questions: [],
      last_refresh: null,
      onboarding: false,
    });
    const cleanup = await db
      .select({
        kind: personalityCleanup.kind,
        targetId: personalityCleanup.targetId,
        channelId: personalityCleanup.channelId,
      })
      .from(personalityCleanup)
      .where(eq(personalityCleanup.guildId, guildId));
    expect(cleanup).toEqual(
      expect.arrayContaining([
        { kind: 'role', targetId: roleId, channelId: null },
        { kind: 'message', targetId: messageId, channelId: CHANNELS.general },
        { kind: 'onboarding', targetId: promptId, channelId: null },
      ]),
    );
    expect(cleanup).toHaveLength(3);
    expect(await db.select().from(personalityOptions).where(eq(personalityOptions.guildId, guildId))).toEqual(
      [],
    );

    // Generate and post wait for a new Initialize; toggles find no question.
    await expectInvalid(await send('POST', path('generatePersonalityRoles')), INITIALIZE_FIRST_MESSAGE);
    await expectInvalid(await send('POST', path('postPersonalityMessages')), INITIALIZE_FIRST_MESSAGE);
    const toggle = await send('PUT', path('togglePersonalityQuestion', { question_type: 'zodiac' }), {
      enabled: true,
    });
    expect(toggle.statusCode).toBe(404);
  });

  it('initializes afresh after a reset, every question enabled again', async () => {
    const init = await send('POST', path('initPersonalityRoles'), { channel_id: CHANNELS.roles });
    expect(init.statusCode, init.body).toBe(200);
    const state = init.json<PersonalityRolesState>();
    expect(state).toMatchObject({ configured: true, last_refresh: null });
    expect(state.questions).toHaveLength(10);
    expect(state.questions.every((q) => q.is_enabled)).toBe(true);
  });
});

describe('with the job queue down', () => {
  let down: FastifyInstance;

  beforeAll(async () => {
    down = await appWithRedisDown(h);
  });
  afterAll(async () => {
    await down?.close();
  });

  it('init, channel and toggle still store the change; the scheduled refresh follows', async () => {
    const init = await send('POST', path('initPersonalityRoles'), { channel_id: CHANNELS.roles }, down);
    expect(init.statusCode, init.body).toBe(200);
    const channel = await send('PUT', path('setPersonalityChannel'), { channel_id: CHANNELS.general }, down);
    expect(channel.statusCode, channel.body).toBe(200);
    const toggle = await send(
      'PUT',
      path('togglePersonalityQuestion', { question_type: 'mbti' }),
      { enabled: false },
      down,
    );
    expect(toggle.statusCode, toggle.body).toBe(200);
    expect(toggle.json()).toMatchObject({ question_type: 'mbti', is_enabled: false });
    const state = await getState();
    expect(state.assign_channel_id).toBe(CHANNELS.general);
    expect(state.questions.find((q) => q.question_type === 'mbti')?.is_enabled).toBe(false);

    // Jobs an admin asked for are refused, as before: nothing would run them.
    const generate = await send('POST', path('generatePersonalityRoles'), undefined, down);
    expect(generate.statusCode, generate.body).toBe(503);
  });
});
