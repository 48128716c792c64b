import { jobIdFor, lastPersonalityPickKey } from '@spacecadet/contract';
import { buildPersonalityMessage } from '@spacecadet/core';
import {
  loadPersonalityQuestion,
  type StoredPersonalityQuestion,
  savePersonalityMessage,
  seedPersonalityCatalog,
  setPersonalityOptionRoleId,
} from '@spacecadet/db/queries/personality-roles';
import { personalityConfigs, personalityOptions, personalityQuestions } from '@spacecadet/db/schema';
import { type APIRole, MessageFlags } from 'discord.js';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PERSONALITY_ROLE_ABOVE_BOT_MESSAGE,
  PERSONALITY_ROLE_MISSING_MESSAGE,
  personalityAnswerMessage,
} from '../src/features/personality-roles/apply-picks.ts';
import { PERSONALITY_PANEL_OUT_OF_DATE } from '../src/features/personality-roles/picks.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  type ClickResult,
  control,
  finalAnswer,
  type Harness,
  holdNextRoleChange,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const rolesChannel = SANDBOX_IDS.channels.roles;
const nia = SANDBOX_IDS.users.nia;
/** Past the 20 options that fit as buttons, so the question is posted as a select menu. */
const SELECT_OPTION_COUNT = 22;

describe('members picking personality roles', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  const messageIds = new Map<string, string>();

  const question = async (type: string): Promise<StoredPersonalityQuestion> => {
    const found = await loadPersonalityQuestion(harness.database.db, STATION, type);
    if (!found) throw new Error(`question ${type} not seeded`);
    return found;
  };
  const roleOf = async (type: string, label: string) =>
    (await question(type)).options.find((option) => option.label === label)?.roleId ?? '';
  /** nia's roles of the question's options, in panel order. */
  const niaHolds = async (type: string) => {
    const held = new Set(memberRoles(harness.sandbox, STATION, nia));
    return (await question(type)).options.flatMap((option) =>
      option.roleId && held.has(option.roleId) ? [option.label] : [],
    );
  };
  /**
   * A member's click on the question's message; options named by their position in the panel
   * (`'0'`), sent as the message names them (`o<option id>`), a position past the options as is.
   */
  const click = async (type: string, suffix: string | null, values?: string[]): Promise<ClickResult> => {
    const { options } = await question(type);
    const ref = (position: string) => {
      const option = /^\d+$/.test(position) ? options[Number(position)] : undefined;
      return option ? `o${option.id}` : position;
    };
    return control(harness.sandbox).click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: messageIds.get(type) ?? '',
      user_id: nia,
      custom_id: suffix === null ? `personality:${type}` : `personality:${type}:${ref(suffix)}`,
      ...(values ? { values: values.map(ref) } : {}),
    });
  };
  /**
   * The answer a click ended with (the first one, or the deferred answer edited in later), after
   * checking it came ephemeral and was answered at all (how soon is `pnpm bench click-latency`'s).
   */
  const answerOf = async (result: ClickResult) => {
    expect(result.responded).toBe(true);
    expect(result.response?.data?.flags).toBe(MessageFlags.Ephemeral);
    return finalAnswer(harness.sandbox, result);
  };
  const answer = async (type: string, suffix: string | null, values?: string[]) =>
    answerOf(await click(type, suffix, values));
  const createRole = (name: string) =>
    control(harness.sandbox).botRest<APIRole>('POST', `/guilds/${STATION}/roles`, { name });
  const inWorkerCache = (roleId: string) =>
    worker.client.guilds.cache.get(STATION)?.roles.cache.has(roleId) ?? false;
  const refreshJobId = jobIdFor('personality-roles.refresh', STATION);
  const refreshJobState = () => jobs.queue.getJobState(refreshJobId);
  /** Lets a refresh a click queued run out (whatever its handler does), then forgets it. */
  const settleRefresh = async () => {
    if ((await refreshJobState()) === 'unknown') return;
    await jobs.finished(refreshJobId);
    await jobs.queue.remove(refreshJobId);
  };

  /** A role for every option of the question, and its message posted in the roles channel. */
  const prepare = async (type: string) => {
    const stored = await question(type);
    for (const option of stored.options) {
      const role = await createRole(option.label);
      await setPersonalityOptionRoleId(harness.database.db, option.id, role.id);
      await waitFor(`role ${option.label} in the worker's cache`, () => inWorkerCache(role.id));
    }
    const message = await control(harness.sandbox).botRest<{ id: string }>(
      'POST',
      `/channels/${rolesChannel}/messages`,
      buildPersonalityMessage(stored),
    );
    await savePersonalityMessage(harness.database.db, stored.id, {
      id: message.id,
      channelId: rolesChannel,
      digest: null,
    });
    messageIds.set(type, message.id);
  };

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    const { db } = harness.database;
    await db.transaction((tx) => seedPersonalityCatalog(tx, STATION));
    await db
      .insert(personalityConfigs)
      .values({ guildId: STATION, configured: true, assignChannelId: rolesChannel });
    // Music Genres grows past 20 options so its message is a select menu.
    const genres = await question('music_genres');
    await db.insert(personalityOptions).values(
      Array.from({ length: SELECT_OPTION_COUNT - genres.options.length }, (_, index) => ({
        questionId: genres.id,
        guildId: STATION,
        label: `Genre ${index + 1}`,
        position: genres.options.length + index,
      })),
    );
    for (const type of ['gender', 'pronouns', 'music_genres', 'dm_status', 'ping_roles']) {
      await prepare(type);
    }
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('a single-choice button replaces the member’s answer to that question', async () => {
    expect(await answer('gender', '0')).toBe(personalityAnswerMessage('Gender', ['Male']));
    expect(await niaHolds('gender')).toEqual(['Male']);
    expect(await answer('gender', '2')).toBe(personalityAnswerMessage('Gender', ['Non-binary']));
    expect(await niaHolds('gender')).toEqual(['Non-binary']);
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(SANDBOX_IDS.roles.stationCrew);
    // Picking the held answer again keeps it.
    expect(await answer('gender', '2')).toBe('Your Gender: **Non-binary**.');
    expect(await niaHolds('gender')).toEqual(['Non-binary']);
  });

  it('a multi-select button toggles its role on and off; Clear my answer removes them all', async () => {
    expect(await answer('pronouns', '0')).toBe('Your Pronouns: **He/Him**.');
    expect(await answer('pronouns', '2')).toBe('Your Pronouns: **He/Him**, **They/Them**.');
    expect(await niaHolds('pronouns')).toEqual(['He/Him', 'They/Them']);
    expect(await answer('pronouns', '0')).toBe('Your Pronouns: **They/Them**.');
    expect(await niaHolds('pronouns')).toEqual(['They/Them']);
    await answer('pronouns', '1');
    expect(await answer('pronouns', 'clear')).toBe('You have no Pronouns role now.');
    expect(await niaHolds('pronouns')).toEqual([]);
    // Other questions' roles are left alone.
    expect(await niaHolds('gender')).toEqual(['Non-binary']);
  });

  it('the select menu sets exactly the chosen answers; an empty selection clears them', async () => {
    expect(await answer('music_genres', null, ['0', '3', '20'])).toBe(
      'Your Music Genres: **Pop**, **Electronic**, **Genre 9**.',
    );
    expect(await niaHolds('music_genres')).toEqual(['Pop', 'Electronic', 'Genre 9']);
    expect(await answer('music_genres', null, ['3', '21'])).toBe(
      'Your Music Genres: **Electronic**, **Genre 10**.',
    );
    expect(await niaHolds('music_genres')).toEqual(['Electronic', 'Genre 10']);
    expect(await answer('music_genres', null, [])).toBe('You have no Music Genres role now.');
    expect(await niaHolds('music_genres')).toEqual([]);
  });

  it('five single-choice clicks fired together leave exactly one answer', async () => {
    for (let round = 0; round < 3; round++) {
      const clicks = await Promise.all(['0', '1', '2', '3', '4'].map((index) => click('gender', index)));
      const answers = await Promise.all(clicks.map((result) => answerOf(result)));
      for (const text of answers) expect(text).toMatch(/^Your Gender: \*\*[^*]+\*\*\.$/);
      expect(await niaHolds('gender')).toHaveLength(1);
    }
  });

  it('single-choice clicks made while the first is in flight: the last wins and every click says so', async () => {
    const stored = await question('gender');
    const labels = stored.options.map((option) => option.label);
    // The test before leaves a random answer; with option 0 already held the first click would
    // change no role, and there would be nothing for Discord to hold up.
    expect(await answer('gender', '4')).toBe(personalityAnswerMessage(stored.title, [labels[4] ?? '']));
    // Discord holds nia's first role change up (a 429): the two later clicks come meanwhile.
    const held = await holdNextRoleChange(harness, nia, 'PUT', 1);
    const first = await click('gender', '0');
    await held();
    const second = await click('gender', '1');
    const third = await click('gender', '3');
    for (const result of [first, second, third]) {
      expect(await answerOf(result)).toBe(personalityAnswerMessage(stored.title, [labels[3] ?? '']));
    }
    expect(await niaHolds('gender')).toEqual([labels[3]]);
  });

  it('multi-select toggles fired together each take effect', async () => {
    await answer('ping_roles', 'clear');
    const indexes = ['0', '1', '2', '3', '4'];
    const clicks = await Promise.all(indexes.map((index) => click('ping_roles', index)));
    const answers = await Promise.all(clicks.map((result) => answerOf(result)));
    const stored = await question('ping_roles');
    // Every click added its role, none undid another's, and each is answered with all five.
    const expected = stored.options.slice(0, indexes.length).map((option) => option.label);
    expect(await niaHolds('ping_roles')).toEqual(expected);
    for (const text of answers) expect(text).toBe(personalityAnswerMessage(stored.title, expected));
    expect(await answer('ping_roles', 'clear')).toBe('You have no Ping Roles role now.');

    // The same toggle clicked twice at once: on, then off again.
    const twice = await Promise.all([click('ping_roles', '0'), click('ping_roles', '0')]);
    for (const result of twice) expect(await answerOf(result)).toBe('You have no Ping Roles role now.');
    expect(await niaHolds('ping_roles')).toEqual([]);
  });

  it('only roles of the question are ever removed, whatever Redis says', async () => {
    const redis = new Redis(harness.redis.url);
    try {
      await redis.set(
        storedKey(harness, lastPersonalityPickKey(STATION, nia, 'pronouns')),
        JSON.stringify([SANDBOX_IDS.roles.stationCrew, await roleOf('pronouns', 'Ask Me')]),
      );
    } finally {
      redis.disconnect();
    }
    expect(await answer('pronouns', 'clear')).toBe('You have no Pronouns role now.');
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(SANDBOX_IDS.roles.stationCrew);
  });

  it('a stale click (unknown option, wrong control or disabled question) says the panel is out of date', async () => {
    const result = await control(harness.sandbox).click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: messageIds.get('music_genres') ?? '',
      user_id: nia,
      custom_id: 'personality:music_genres',
      values: ['30'],
    });
    expect(await answerOf(result)).toBe(PERSONALITY_PANEL_OUT_OF_DATE);
    expect(await niaHolds('music_genres')).toEqual([]);

    const { db } = harness.database;
    const pings = await question('ping_roles');
    await db
      .update(personalityQuestions)
      .set({ isEnabled: false })
      .where(eq(personalityQuestions.id, pings.id));
    try {
      expect(await answer('ping_roles', '0')).toBe(PERSONALITY_PANEL_OUT_OF_DATE);
      expect(await niaHolds('ping_roles')).toEqual([]);
    } finally {
      await db
        .update(personalityQuestions)
        .set({ isEnabled: true })
        .where(eq(personalityQuestions.id, pings.id));
    }
  });

  it('a deleted role answers that it is missing and queues a refresh', async () => {
    const roleId = await roleOf('dm_status', 'DMs Closed');
    await control(harness.sandbox).botRest('DELETE', `/guilds/${STATION}/roles/${roleId}`);
    await waitFor('the role to leave the cache', () => !inWorkerCache(roleId));
    expect(await answer('dm_status', '2')).toBe(PERSONALITY_ROLE_MISSING_MESSAGE);
    expect(await refreshJobState()).not.toBe('unknown');
    // The other options still work.
    expect(await answer('dm_status', '0')).toBe('Your DM Status: **DMs Open**.');
  });

  it('a role Discord no longer knows (Unknown Role on the add) answers the same', async () => {
    await settleRefresh();
    const roleId = await roleOf('dm_status', 'Ask to DM');
    // The gateway's role delete is held back, so the worker's cache still lists the role.
    const action = (
      worker.client as unknown as { actions: { GuildRoleDelete: { handle(...args: unknown[]): unknown } } }
    ).actions.GuildRoleDelete;
    const handle = action.handle;
    action.handle = () => ({});
    try {
      await control(harness.sandbox).botRest('DELETE', `/guilds/${STATION}/roles/${roleId}`);
      expect(inWorkerCache(roleId)).toBe(true);
      expect(await answer('dm_status', '1')).toBe(PERSONALITY_ROLE_MISSING_MESSAGE);
    } finally {
      action.handle = handle;
    }
    expect(await refreshJobState()).not.toBe('unknown');
    expect(await niaHolds('dm_status')).toEqual(['DMs Open']);
  });

  it('a role above the bot gets the member a clear message', async () => {
    await settleRefresh();
    const stored = await question('gender');
    const female = stored.options[1];
    if (!female) throw new Error('gender has no second option');
    await setPersonalityOptionRoleId(harness.database.db, female.id, SANDBOX_IDS.roles.stationModerators);
    expect(await answer('gender', '1')).toBe(PERSONALITY_ROLE_ABOVE_BOT_MESSAGE);
    expect(memberRoles(harness.sandbox, STATION, nia)).not.toContain(SANDBOX_IDS.roles.stationModerators);
  });
});
