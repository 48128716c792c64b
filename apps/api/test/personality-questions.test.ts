import {
  type HistoryAction,
  type ImportOnboardingResult,
  jobIdFor,
  type PersonalityInsights,
  type PersonalityQuestion,
  type PersonalityRolesState,
  routePath,
  routes,
} from '@spacecadet/contract';
import {
  guildHistory,
  memberDailyXp,
  memberRolePicks,
  personalityAnswerEvents,
  personalityCleanup,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
} from '@spacecadet/db';
import { BOT_ROLE_PERMISSIONS, SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEEDS_MANAGE_SERVER } from '../src/services/personality-import.ts';
import { INITIALIZE_FIRST_MESSAGE } from '../src/services/personality-roles.ts';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

const ROLES = SANDBOX_IDS.roles;
const guildId = GUILDS.station;
let h: Harness;
let ada: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const send = (method: Method, url: string, payload?: object) =>
  h.app.inject({ method, url, headers: { authorization: ada }, ...(payload ? { payload } : {}) });
const questionsPath = routePath(routes.createPersonalityQuestion, { guildId });
const questionPath = (questionId: number) =>
  routePath(routes.updatePersonalityQuestion, { guildId, questionId });
const getState = async () =>
  (await send('GET', routePath(routes.getPersonalityRoles, { guildId }))).json<PersonalityRolesState>();
const cleanupRows = () =>
  h.database.db
    .select({ kind: personalityCleanup.kind, targetId: personalityCleanup.targetId })
    .from(personalityCleanup)
    .where(eq(personalityCleanup.guildId, guildId))
    .orderBy(asc(personalityCleanup.id));
const jobState = (name: 'personality-roles.refresh' | 'personality-roles.onboarding') =>
  h.app.services.queue.forShard(0).getJobState(jobIdFor(name, guildId));

async function expectInvalid(response: Awaited<ReturnType<typeof send>>, message: string | RegExp) {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ error: string; message: string }>();
  expect(body.error).toBe('invalid_input');
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

async function lastEntry(action: HistoryAction) {
  const [row] = await h.database.db
    .select()
    .from(guildHistory)
    .where(and(eq(guildHistory.guildId, guildId), eq(guildHistory.action, action)))
    .orderBy(desc(guildHistory.id))
    .limit(1);
  if (!row) throw new Error(`no ${action} entry`);
  return row;
}
const undo = (entryId: number) =>
  send('POST', routePath(routes.undoHistory, { guildId, entryId }), { confirm: true });

const planets = {
  title: 'Favourite planet',
  description: 'Pick one',
  options: [
    { label: 'Mars', emoji: '🚀', role_id: ROLES.stationCrew, channel_ids: [CHANNELS.general] },
    { label: 'Venus', channel_ids: [CHANNELS.announcements, CHANNELS.stationCategory] },
    { label: 'Saturn' },
  ],
};

// One guild through its life: the tests run in order and each starts where the last one ended.
describe('questions of the server’s own', () => {
  let question: PersonalityQuestion;

  it('refuses a question before Initialize', async () => {
    await expectInvalid(await send('POST', questionsPath, planets), INITIALIZE_FIRST_MESSAGE);
    const init = await send('POST', routePath(routes.initPersonalityRoles, { guildId }), {
      channel_id: CHANNELS.roles,
    });
    expect(init.statusCode, init.body).toBe(200);
  });

  it('creates one (201, key q<id>), a category among the channels an option opens, and lists it', async () => {
    await h.app.services.queue.forShard(0).remove(jobIdFor('personality-roles.refresh', guildId));
    const response = await send('POST', questionsPath, planets);
    expect(response.statusCode, response.body).toBe(201);
    question = response.json<PersonalityQuestion>();
    expect(question.question_type).toBe(`q${question.question_id}`);
    expect(question.options.map((o) => [o.label, o.role_id, o.role_created, o.channel_ids])).toEqual([
      ['Mars', ROLES.stationCrew, false, [CHANNELS.general]],
      ['Venus', null, false, [CHANNELS.announcements, CHANNELS.stationCategory]],
      ['Saturn', null, false, []],
    ]);
    expect((await getState()).questions.at(-1)).toEqual(question);
    expect(await jobState('personality-roles.refresh')).toBe('waiting');
  });

  it('refuses 26 options, a 51-character label, a role above the bot and a channel of another server', async () => {
    const many = Array.from({ length: 26 }, (_, i) => ({ label: `Moon ${i + 1}` }));
    await expectInvalid(
      await send('POST', questionsPath, { title: 'Moons', options: many }),
      'Question "Moons": at most 25 options (Discord\'s limit); this one has 26',
    );
    const long = 'x'.repeat(51);
    await expectInvalid(
      await send('POST', questionsPath, { title: 'Moons', options: [{ label: 'Io' }, { label: long }] }),
      `Question "Moons", option 2 ("${long}"): a label is at most 50 characters (Discord's limit)`,
    );
    await expectInvalid(
      await send('PUT', questionPath(question.question_id), {
        ...planets,
        options: [...planets.options, { label: 'Mods', role_id: ROLES.stationModerators }],
      }),
      /^Question "Favourite planet", option 4 \("Mods"\): @Moderators is above my highest role/,
    );
    await expectInvalid(
      await send('POST', questionsPath, {
        title: 'Moons',
        options: [{ label: 'Io', channel_ids: [CHANNELS.orbitHangar] }],
      }),
      'options row 1: channel_ids item 1 is not a channel of this server',
    );
    expect((await getState()).questions.filter((q) => q.title === 'Moons')).toEqual([]);
  });

  it('answers 404 for an unknown question and for another server’s', async () => {
    const [other] = await h.database.db
      .insert(personalityQuestions)
      .values({ guildId: GUILDS.orbit, questionType: 'q999999', title: 'Theirs' })
      .returning();
    for (const id of [987_654, other?.id ?? 0]) {
      expect((await send('PUT', questionPath(id), planets)).statusCode).toBe(404);
      expect((await send('DELETE', questionPath(id))).statusCode).toBe(404);
    }
  });

  it('edits: options keep their ids and members’ picks; removed ones and closed channels go to cleanup', async () => {
    const [mars, venus, saturn] = question.options;
    if (!mars || !venus || !saturn) throw new Error('three options');
    // The worker created Saturn's role; members picked Mars and Saturn.
    await h.database.db
      .update(personalityOptions)
      .set({ roleId: '900000000000000001' })
      .where(eq(personalityOptions.id, saturn.option_id));
    await h.database.db.insert(memberRolePicks).values([
      {
        guildId,
        userId: USERS.nia,
        scope: `personality:${question.question_type}`,
        targetKey: `option:${mars.option_id}`,
      },
      {
        guildId,
        userId: USERS.mo,
        scope: `personality:${question.question_type}`,
        targetKey: `option:${saturn.option_id}`,
      },
    ]);
    const response = await send('PUT', questionPath(question.question_id), {
      title: 'Planet',
      options: [
        // Matched by label, a channel dropped: its overwrite goes.
        { label: 'venus', channel_ids: [CHANNELS.announcements] },
        {
          option_id: mars.option_id,
          label: 'Mars!',
          role_id: ROLES.stationCrew,
          channel_ids: [CHANNELS.general],
        },
        { label: 'Jupiter' },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = response.json<PersonalityQuestion>();
    expect(edited.options.map((o) => o.option_id).slice(0, 2)).toEqual([venus.option_id, mars.option_id]);
    expect(edited.options.map((o) => o.label)).toEqual(['venus', 'Mars!', 'Jupiter']);
    const picks = await h.database.db
      .select()
      .from(memberRolePicks)
      .where(eq(memberRolePicks.guildId, guildId));
    expect(picks.map((p) => p.targetKey)).toEqual([`option:${mars.option_id}`]);
    expect(await cleanupRows()).toEqual([{ kind: 'role', targetId: '900000000000000001' }]);
    question = edited;
  });

  it('a removed option with a chosen role closes the channels it opened', async () => {
    const response = await send('PUT', questionPath(question.question_id), {
      title: 'Planet',
      options: question.options
        .filter((o) => o.label !== 'Mars!')
        .map(({ option_id, label, channel_ids }) => ({ option_id, label, channel_ids })),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await cleanupRows()).toEqual([
      { kind: 'role', targetId: '900000000000000001' },
      { kind: 'overwrite', targetId: `${CHANNELS.general}:${ROLES.stationCrew}` },
    ]);
    // Venus's role was never made: its dropped channel left nothing to close.
    question = response.json<PersonalityQuestion>();
  });

  it('orders: every question once, else 400 naming what is missing or extra', async () => {
    const ids = (await getState()).questions.map((q) => q.question_id);
    const path = routePath(routes.orderPersonalityQuestions, { guildId });
    await expectInvalid(
      await send('PUT', path, { question_ids: ids.slice(1) }),
      `question_ids: list every question of this server once (missing ${ids[0]})`,
    );
    await expectInvalid(
      await send('PUT', path, { question_ids: [...ids, 987_654] }),
      'question_ids: list every question of this server once (not questions of this server: 987654)',
    );
    const reversed = [...ids].reverse();
    const response = await send('PUT', path, { question_ids: reversed });
    expect(response.statusCode, response.body).toBe(200);
    expect((await getState()).questions.map((q) => q.question_id)).toEqual(reversed);
  });

  it('undoes an edit and a delete (the created role comes back while it exists)', async () => {
    const edit = await lastEntry('personality_roles.question_update');
    const undone = await undo(edit.id);
    expect(undone.statusCode, undone.body).toBeLessThan(300);
    const afterEditUndo = (await getState()).questions.find((q) => q.question_id === question.question_id);
    expect(afterEditUndo?.options.map((o) => o.label)).toEqual(['venus', 'Mars!', 'Jupiter']);

    // Jupiter's role was made by the bot (a role of the server); then the question is deleted.
    const jupiter = afterEditUndo?.options.find((o) => o.label === 'Jupiter');
    await h.database.db
      .update(personalityOptions)
      .set({ roleId: ROLES.stationManagers })
      .where(eq(personalityOptions.id, jupiter?.option_id ?? 0));
    await h.database.db
      .update(personalityQuestions)
      .set({ messageId: '900000000000000002', messageChannelId: CHANNELS.roles })
      .where(eq(personalityQuestions.id, question.question_id));
    const before = (await getState()).questions.find((q) => q.question_id === question.question_id);
    const deleted = await send('DELETE', `${questionPath(question.question_id)}?delete_roles=true`);
    expect(deleted.statusCode, deleted.body).toBe(202);
    expect(deleted.json()).toEqual({ job_id: jobIdFor('personality-roles.refresh', guildId) });
    expect(await cleanupRows()).toEqual(
      expect.arrayContaining([
        { kind: 'message', targetId: '900000000000000002' },
        { kind: 'role', targetId: ROLES.stationManagers },
      ]),
    );
    // The chosen role (Mars's Crew) is never the bot's to delete.
    expect((await cleanupRows()).some((row) => row.targetId === ROLES.stationCrew)).toBe(false);
    expect((await getState()).questions.some((q) => q.question_id === question.question_id)).toBe(false);

    const entry = await lastEntry('personality_roles.question_delete');
    const back = await undo(entry.id);
    expect(back.statusCode, back.body).toBeLessThan(300);
    const revived = (await getState()).questions.find((q) => q.question_id === question.question_id);
    expect(
      revived?.options.map((o) => [o.option_id === undefined, o.label, o.role_id, o.role_created]),
    ).toEqual(before?.options.map((o) => [false, o.label, o.role_id, o.role_created]));
    expect(revived?.message_posted).toBe(false);
    // The role is in use again: its pending deletion is called off.
    expect((await cleanupRows()).some((row) => row.targetId === ROLES.stationManagers)).toBe(false);
  });

  it('imports Onboarding prompts: roles and channels kept, a prompt giving two roles a skip', async () => {
    const path = routePath(routes.importPersonalityOnboarding, { guildId });
    await expectInvalid(await send('POST', path), NEEDS_MANAGE_SERVER);
    // An admin gives the bot's role Manage Server (Onboarding's own requirement).
    const granted = await fetch(`${h.sandbox.url}/_sandbox/guilds/${guildId}/roles/${ROLES.stationBot}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        permissions: (BigInt(BOT_ROLE_PERMISSIONS) | PermissionFlagsBits.ManageGuild).toString(),
      }),
    });
    expect(granted.status, await granted.clone().text()).toBe(200);
    const put = await fetch(`${h.sandbox.apiBase}/v10/guilds/${guildId}/onboarding`, {
      method: 'PUT',
      headers: { authorization: 'Bot sandbox-bot-token', 'content-type': 'application/json' },
      body: JSON.stringify({
        prompts: [
          {
            id: '0',
            title: 'Where from?',
            single_select: true,
            options: [
              {
                title: 'Earth',
                emoji_name: '🌍',
                role_ids: [ROLES.stationCrew],
                channel_ids: [CHANNELS.general],
              },
              { title: 'Space', role_ids: [], channel_ids: [] },
            ],
          },
          {
            id: '1',
            title: 'Jobs',
            options: [{ title: 'Both', role_ids: [ROLES.stationCrew, ROLES.stationManagers] }],
          },
        ],
      }),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const response = await send('POST', path);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<ImportOnboardingResult>();
    expect(result.question_ids).toHaveLength(1);
    expect(result.skipped).toEqual([
      {
        title: 'Jobs',
        reason: 'Prompt "Jobs", option "Both" gives 2 roles; an option of a question gives one',
      },
    ]);
    const imported = (await getState()).questions.find((q) => q.question_id === result.question_ids[0]);
    expect(imported).toMatchObject({ title: 'Where from?', is_multi_select: false, in_onboarding: true });
    expect(
      imported?.options.map((o) => [o.label, o.emoji, o.role_id, o.role_created, o.channel_ids]),
    ).toEqual([
      ['Earth', '🌍', ROLES.stationCrew, false, [CHANNELS.general]],
      ['Space', null, null, false, []],
    ]);
    const [config] = await h.database.db
      .select()
      .from(personalityConfigs)
      .where(eq(personalityConfigs.guildId, guildId));
    expect(config?.onboardingEnabled).toBe(true);
    expect(await jobState('personality-roles.onboarding')).not.toBe('unknown');
    // Again: the linked prompt is not made twice.
    const again = (await send('POST', path)).json<ImportOnboardingResult>();
    expect(again.question_ids).toEqual(result.question_ids);
  });

  it('insights: holders, picks and drops, XP per holder, and who stayed 7 days', async () => {
    const q = (await getState()).questions.find((x) => x.title === 'Where from?');
    const [earth, space] = q?.options ?? [];
    if (!q || !earth || !space) throw new Error('imported question');
    const scope = `personality:${q.question_type}`;
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000);
    await h.database.db.insert(memberRolePicks).values([
      { guildId, userId: USERS.nia, scope, targetKey: `option:${earth.option_id}` },
      { guildId, userId: USERS.mo, scope, targetKey: `option:${earth.option_id}` },
    ]);
    const event = (userId: string, kind: 'picked' | 'dropped', joinedAgo: number, leftAgo?: number) => ({
      guildId,
      userId,
      questionId: q.question_id,
      optionId: earth.option_id,
      kind,
      source: 'onboarding' as const,
      joinedAt: day(joinedAgo),
      leftAt: leftAgo === undefined ? null : day(leftAgo),
      at: day(joinedAgo - 0.1),
    });
    await h.database.db.insert(personalityAnswerEvents).values([
      event(USERS.nia, 'picked', 10),
      // rex joined 10 days ago and left after 2: not still here after 7 days.
      event(USERS.rex, 'picked', 10, 8),
      event(USERS.rex, 'dropped', 10, 8),
      // mo joined 3 days ago: not 7 days yet, not counted either way.
      event(USERS.mo, 'picked', 3),
      // Outside the period.
      { ...event(USERS.zed, 'picked', 60), at: day(59) },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    await h.database.db.insert(memberDailyXp).values([
      { guildId, userId: USERS.nia, day: today, xp: 30 },
      { guildId, userId: USERS.mo, day: today, xp: 10 },
      { guildId, userId: USERS.rex, day: today, xp: 500 },
    ]);
    const response = await send('GET', `${routePath(routes.getPersonalityInsights, { guildId })}?days=30`);
    expect(response.statusCode, response.body).toBe(200);
    const insights = response.json<PersonalityInsights>();
    expect(insights.days).toBe(30);
    const mine = insights.questions.find((x) => x.question_id === q.question_id);
    expect(mine?.answered).toBe(2);
    expect(mine?.options).toEqual([
      {
        option_id: earth.option_id,
        label: 'Earth',
        role_id: ROLES.stationCrew,
        holders: 2,
        picked: 3,
        unpicked: 1,
        xp_per_member: 20,
        still_here_after_7_days: 0.5,
      },
      {
        option_id: space.option_id,
        label: 'Space',
        role_id: null,
        holders: 0,
        picked: 0,
        unpicked: 0,
        xp_per_member: 0,
        still_here_after_7_days: null,
      },
    ]);
    await expectInvalid(
      await send('GET', `${routePath(routes.getPersonalityInsights, { guildId })}?days=91`),
      /days/,
    );
  });
});
