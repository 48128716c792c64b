import { jobIdFor, ownQuestionKey } from '@spacecadet/contract';
import { personalityPickScope } from '@spacecadet/db/queries/member-picks';
import {
  loadPersonalityQuestion,
  retirePersonalitySetup,
  type StoredPersonalityQuestion,
} from '@spacecadet/db/queries/personality-roles';
import {
  memberRolePicks,
  personalityAnswerEvents,
  personalityCleanup,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
} from '@spacecadet/db/schema';
import { BOT_ROLE_PERMISSIONS } from '@spacecadet/discord-sandbox';
import { type APIRole, PermissionFlagsBits } from 'discord.js';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKnownRoleViewAllowed } from '../src/guild-channels.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  finalAnswer,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  waitFor,
} from './helpers.ts';

const { channels, roles: ids, users } = SANDBOX_IDS;
/** The private channel answering "Engineers" opens. */
const ENGINE_ROOM = channels.announcements;
const VIEW = PermissionFlagsBits.ViewChannel;

/**
 * A question of the server's own (rows with key `q<id>`, as the API writes them): its options'
 * roles are made and open their channels, members answer on the panel and in Onboarding, each
 * answer counts once, edits keep members' roles and take back removed channels, and a reset
 * never deletes an admin's chosen role.
 */
describe('own personality questions', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let questionId = 0;
  let key = '';

  const db = () => harness.database.db;
  const sandbox = () => control(harness.sandbox);
  const run = async (name: Parameters<typeof jobs.add>[0]) => {
    const outcome = await jobs.finished((await jobs.add(name)).id ?? '');
    await jobs.queue.remove(jobIdFor(name, STATION));
    return outcome;
  };
  const question = async (): Promise<StoredPersonalityQuestion> => {
    const found = await loadPersonalityQuestion(db(), STATION, key);
    if (!found) throw new Error('own question missing');
    return found;
  };
  const option = async (label: string) => {
    const found = (await question()).options.find((o) => o.label === label);
    if (!found) throw new Error(`no option ${label}`);
    return found;
  };
  const overwriteOf = (channelId: string, roleId: string) =>
    guildState(harness.sandbox, STATION)
      .channels.find((c) => c.id === channelId)
      ?.permission_overwrites?.find((o) => o.id === roleId);
  const canView = (channelId: string, userId: string) =>
    sandbox().call<{ permissions: string; view_channel: boolean }>(
      'GET',
      `/_sandbox/guilds/${STATION}/channels/${channelId}/members/${userId}/permissions`,
    );
  const requests = () =>
    sandbox().call<Array<{ seq: number; method: string; path: string }>>('GET', '/_sandbox/requests');
  const lastSeq = async () => (await requests()).at(-1)?.seq ?? 0;
  const events = (userId: string) =>
    db()
      .select()
      .from(personalityAnswerEvents)
      .where(and(eq(personalityAnswerEvents.guildId, STATION), eq(personalityAnswerEvents.userId, userId)));
  const picks = (userId: string) =>
    db()
      .select()
      .from(memberRolePicks)
      .where(
        and(
          eq(memberRolePicks.guildId, STATION),
          eq(memberRolePicks.userId, userId),
          eq(memberRolePicks.scope, personalityPickScope(key)),
        ),
      );
  const answerInOnboarding = async (userId: string, label: string) => {
    const promptId = (await question()).onboardingPromptId;
    const found = guildState(harness.sandbox, STATION)
      .onboarding.prompts.find((p) => p.id === promptId)
      ?.options.find((o) => o.title === label);
    await sandbox().call('POST', `/_sandbox/guilds/${STATION}/onboarding/answers`, {
      user_id: userId,
      option_ids: [found?.id],
    });
  };

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    // The engine room is private: @everyone cannot see it; the bot's role can (to open it).
    await sandbox().call('PUT', `/_sandbox/channels/${ENGINE_ROOM}/permissions/${STATION}`, {
      type: 0,
      allow: '0',
      deny: VIEW.toString(),
    });
    await sandbox().call('PUT', `/_sandbox/channels/${ENGINE_ROOM}/permissions/${ids.stationBot}`, {
      type: 0,
      allow: VIEW.toString(),
      deny: '0',
    });
    // Onboarding needs Manage Server too.
    await sandbox().call('PATCH', `/_sandbox/guilds/${STATION}/roles/${ids.stationBot}`, {
      permissions: (BigInt(BOT_ROLE_PERMISSIONS) | PermissionFlagsBits.ManageGuild).toString(),
    });
    // What the API's Initialize and "create a question" write: the id first, then the row with its key.
    await db()
      .insert(personalityConfigs)
      .values({ guildId: STATION, assignChannelId: channels.roles, configured: true });
    const [{ id }] = (
      await db().execute<{ id: string }>(sql`select nextval('personality_questions_id_seq') as id`)
    ).rows as [{ id: string }];
    questionId = Number(id);
    key = ownQuestionKey(questionId);
    await db().insert(personalityQuestions).values({
      id: questionId,
      guildId: STATION,
      questionType: key,
      title: 'Which crew are you in?',
      description: 'Pick your crew.',
      isMultiSelect: false,
      isEnabled: true,
      position: 0,
    });
    await db()
      .insert(personalityOptions)
      .values([
        {
          questionId,
          guildId: STATION,
          label: 'Engineers',
          emoji: '🔧',
          position: 0,
          channelIds: [ENGINE_ROOM],
        },
        { questionId, guildId: STATION, label: 'Pilots', emoji: '🛸', position: 1 },
      ]);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('the refresh makes its roles and opens the option channel; an up-to-date run asks nothing', async () => {
    const first = await run('personality-roles.refresh');
    expect(first.state, first.error).toBe('completed');
    const engineers = await option('Engineers');
    const pilots = await option('Pilots');
    expect(engineers.roleId).not.toBeNull();
    expect(pilots.roleId).not.toBeNull();
    expect(engineers.roleChosen).toBe(false);
    const roleId = engineers.roleId ?? '';
    const overwrite = overwriteOf(ENGINE_ROOM, roleId);
    expect(overwrite && BigInt(overwrite.allow) & VIEW).toBe(VIEW);
    expect(overwriteOf(ENGINE_ROOM, pilots.roleId ?? '')).toBeUndefined();

    await waitFor('the opened channel heard by the worker', () =>
      isKnownRoleViewAllowed(worker.client, STATION, ENGINE_ROOM, roleId),
    );
    const since = await lastSeq();
    const again = await run('personality-roles.refresh');
    expect(again.result).toMatchObject({ summary: 'Everything was in place.' });
    expect((await requests()).filter((r) => r.seq > since && r.path.includes(ENGINE_ROOM))).toEqual([]);
  });

  it('a member who clicks the option holds its role and can see the channel; the click counts once', async () => {
    expect((await run('personality-roles.post')).state).toBe('completed');
    const stored = await question();
    const engineers = await option('Engineers');
    expect((await canView(ENGINE_ROOM, users.nia)).view_channel).toBe(false);
    const result = await sandbox().click({
      guild_id: STATION,
      channel_id: channels.roles,
      message_id: stored.messageId ?? '',
      user_id: users.nia,
      custom_id: `personality:${key}:o${engineers.id}`,
    });
    expect(await finalAnswer(harness.sandbox, result)).toContain('Engineers');
    expect(memberRoles(harness.sandbox, STATION, users.nia)).toContain(engineers.roleId);
    expect(await canView(ENGINE_ROOM, users.nia)).toMatchObject({ view_channel: true });
    expect((await picks(users.nia)).map((p) => p.targetKey)).toEqual([`option:${engineers.id}`]);
  });

  it('synced to Onboarding with the channel; an Onboarding answer is a pick and one event', async () => {
    await db()
      .update(personalityConfigs)
      .set({ onboardingEnabled: true })
      .where(eq(personalityConfigs.guildId, STATION));
    const synced = await run('personality-roles.onboarding');
    expect(synced.state, synced.error).toBe('completed');
    const stored = await question();
    const engineers = await option('Engineers');
    const prompt = guildState(harness.sandbox, STATION).onboarding.prompts.find(
      (p) => p.id === stored.onboardingPromptId,
    );
    expect(prompt?.options.map((o) => [o.title, o.role_ids, o.channel_ids])).toEqual([
      ['Engineers', [engineers.roleId], [ENGINE_ROOM]],
      ['Pilots', [(await option('Pilots')).roleId], []],
    ]);

    await answerInOnboarding(users.mo, 'Engineers');
    await waitFor("mo's Onboarding answer recorded", async () => (await events(users.mo)).length > 0);
    expect((await picks(users.mo)).map((p) => p.targetKey)).toEqual([`option:${engineers.id}`]);
    expect((await events(users.mo)).map((e) => [e.optionId, e.kind, e.source])).toEqual([
      [engineers.id, 'picked', 'onboarding'],
    ]);

    // nia's later Onboarding answer is handled after her click's update (one member's events in
    // order): once it is recorded, the click's update was too, and it counted nothing more.
    const pilots = await option('Pilots');
    await answerInOnboarding(users.nia, 'Pilots');
    await waitFor("nia's Onboarding answer recorded", async () =>
      (await events(users.nia)).some((e) => e.optionId === pilots.id),
    );
    expect(
      (await events(users.nia))
        .map((e) => [e.optionId, e.kind, e.source])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [engineers.id, 'picked', 'panel'],
      [pilots.id, 'picked', 'onboarding'],
    ]);
  });

  it('a member who leaves gets left_at on their answers', async () => {
    await sandbox().call('DELETE', `/_sandbox/guilds/${STATION}/members/${users.mo}`);
    await waitFor("mo's answers marked left", async () => {
      const rows = await events(users.mo);
      return rows.length > 0 && rows.every((e) => e.leftAt !== null);
    });
  });

  it('an edit removing the channel takes the View Channel back and keeps members their role', async () => {
    const engineers = await option('Engineers');
    const roleId = engineers.roleId ?? '';
    // What the API's edit writes: the option without the channel, and the overwrite to clean up.
    await db().transaction(async (tx) => {
      await tx
        .update(personalityOptions)
        .set({ channelIds: [] })
        .where(eq(personalityOptions.id, engineers.id));
      await tx.insert(personalityCleanup).values({
        guildId: STATION,
        kind: 'overwrite',
        targetId: `${ENGINE_ROOM}:${roleId}`,
        channelId: ENGINE_ROOM,
        name: 'Engineers',
      });
    });
    const refreshed = await run('personality-roles.refresh');
    expect(refreshed.state, refreshed.error).toBe('completed');
    expect(overwriteOf(ENGINE_ROOM, roleId)).toBeUndefined();
    expect(
      await db().select().from(personalityCleanup).where(eq(personalityCleanup.guildId, STATION)),
    ).toEqual([]);
    expect(memberRoles(harness.sandbox, STATION, users.nia)).toContain(roleId);
    expect((await canView(ENGINE_ROOM, users.nia)).view_channel).toBe(false);
    // Run again (a retry): nothing left to do.
    expect((await run('personality-roles.refresh')).state).toBe('completed');
  });

  it('a chosen role deleted in Discord is replaced by a role of the bot, named after the option', async () => {
    const chosen = await sandbox().botRest<APIRole>('POST', `/guilds/${STATION}/roles`, {
      name: 'Flight deck',
    });
    const pilots = await option('Pilots');
    await db()
      .update(personalityOptions)
      .set({ roleId: chosen.id, roleChosen: true })
      .where(eq(personalityOptions.id, pilots.id));
    expect((await run('personality-roles.refresh')).state).toBe('completed');
    expect(await option('Pilots')).toMatchObject({ roleId: chosen.id, roleChosen: true });

    await sandbox().call('DELETE', `/_sandbox/guilds/${STATION}/roles/${chosen.id}`);
    await waitFor(
      'the deleted role gone from the worker cache',
      () => !worker.client.guilds.cache.get(STATION)?.roles.cache.has(chosen.id),
    );
    const refreshed = await run('personality-roles.refresh');
    expect(refreshed.state, refreshed.error).toBe('completed');
    const now = await option('Pilots');
    expect(now.roleChosen).toBe(false);
    expect(now.roleId).not.toBe(chosen.id);
    expect(guildState(harness.sandbox, STATION).roles.find((r) => r.id === now.roleId)?.name).toBe('Pilots');
  });

  it('a reset never deletes a chosen role; it takes back the channel the bot opened to it', async () => {
    const chosen = await sandbox().botRest<APIRole>('POST', `/guilds/${STATION}/roles`, {
      name: 'Pilot wings',
    });
    const pilots = await option('Pilots');
    const engineers = await option('Engineers');
    await db()
      .update(personalityOptions)
      .set({ roleId: chosen.id, roleChosen: true, channelIds: [ENGINE_ROOM] })
      .where(eq(personalityOptions.id, pilots.id));
    expect((await run('personality-roles.refresh')).state).toBe('completed');
    expect(BigInt(overwriteOf(ENGINE_ROOM, chosen.id)?.allow ?? '0') & VIEW).toBe(VIEW);

    await retirePersonalitySetup(db(), STATION);
    const reset = await run('personality-roles.reset');
    expect(reset.state, reset.error).toBe('completed');
    const roles = guildState(harness.sandbox, STATION).roles.map((r) => r.id);
    expect(roles).toContain(chosen.id);
    expect(roles).not.toContain(engineers.roleId);
    expect(overwriteOf(ENGINE_ROOM, chosen.id)).toBeUndefined();
  });
});
