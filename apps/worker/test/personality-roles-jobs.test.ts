import { jobSchedulerIdFor, PersonalityLastRefresh, personalityLastRefreshKey } from '@spacecadet/contract';
import {
  PERSONALITY_CATALOG,
  PERSONALITY_REFRESH_INTERVAL_MS,
  personalityMessageSignature,
} from '@spacecadet/core';
import {
  loadPersonalityConfig,
  loadPersonalityQuestions,
  retirePersonalitySetup,
  seedPersonalityCatalog,
} from '@spacecadet/db/queries/personality-roles';
import {
  personalityCleanup,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
} from '@spacecadet/db/schema';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageBodyOf } from '../src/features/personality-roles/messages.ts';
import { MANAGE_ROLES_WARNING } from '../src/features/personality-roles/roles.ts';
import { isVerified } from '../src/features/personality-roles/verified.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const rolesChannel = SANDBOX_IDS.channels.roles;
const announcements = SANDBOX_IDS.channels.announcements;
const allOptions = PERSONALITY_CATALOG.flatMap((question) => question.options.map((option) => option.label));
const optionCount = allOptions.length;

interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
}

describe('personality-roles jobs', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let fixtureRoles = 0;

  const db = () => harness.database.db;
  const run = async (name: Parameters<typeof jobs.add>[0]) => jobs.finished((await jobs.add(name)).id ?? '');
  const roles = () => guildState(harness.sandbox, STATION).roles;
  const messagesIn = (channelId: string) =>
    guildState(harness.sandbox, STATION).channels.find((c) => c.id === channelId)?.messages ?? [];
  const requests = async (): Promise<RecordedRequest[]> =>
    (await fetch(`${harness.sandbox.url}/_sandbox/requests`)).json() as Promise<RecordedRequest[]>;
  const lastSeq = async () => (await requests()).at(-1)?.seq ?? 0;
  /** Bot REST writes the sandbox answered after `since` (GETs are reads). */
  const writesSince = async (since: number) =>
    (await requests()).filter((request) => request.seq > since && request.method !== 'GET');

  /** What the API's init does: the channel, configured, and the catalog. */
  const init = (channelId = rolesChannel) =>
    db().transaction(async (tx) => {
      await tx
        .insert(personalityConfigs)
        .values({ guildId: STATION, assignChannelId: channelId, configured: true })
        .onConflictDoUpdate({
          target: personalityConfigs.guildId,
          set: { assignChannelId: channelId, configured: true },
        });
      await seedPersonalityCatalog(tx, STATION);
    });
  const setEnabled = (type: string, enabled: boolean) =>
    db()
      .update(personalityQuestions)
      .set({ isEnabled: enabled })
      .where(and(eq(personalityQuestions.guildId, STATION), eq(personalityQuestions.questionType, type)));
  /** What the API's reset does: retire the setup, then the job. */
  const reset = async () => {
    await retirePersonalitySetup(db(), STATION);
    return run('personality-roles.reset');
  };
  /** What the refresh recorded for the dashboard. */
  const lastRefresh = async (): Promise<PersonalityLastRefresh | null> => {
    const redis = new Redis(harness.redis.url);
    try {
      const stored = await redis.get(storedKey(harness, personalityLastRefreshKey(STATION)));
      return stored === null ? null : PersonalityLastRefresh.parse(JSON.parse(stored));
    } finally {
      redis.disconnect();
    }
  };
  const personalityRoles = () => roles().filter((role) => allOptions.includes(role.name));

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    fixtureRoles = roles().length;
  });
  afterEach(async () => {
    expect((await reset()).state).toBe('completed');
    await control(harness.sandbox).clearFaults();
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('generate refuses a server that was not initialized', async () => {
    const outcome = await run('personality-roles.generate');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toMatch(/initialize them first/);
    expect(roles()).toHaveLength(fixtureRoles);
  });

  it('generate creates one role per option of each enabled question; a second run creates nothing', async () => {
    await init();
    await setEnabled('mbti', false);
    const mbti = PERSONALITY_CATALOG.find((q) => q.questionType === 'mbti')?.options.length ?? 0;
    const first = await run('personality-roles.generate');
    expect(first.state).toBe('completed');
    expect(first.result).toMatchObject({ ok: true, created: optionCount - mbti });
    expect(roles()).toHaveLength(fixtureRoles + optionCount - mbti);
    const stored = (await loadPersonalityQuestions(db(), STATION)).flatMap((q) =>
      q.isEnabled ? q.options.map((o) => o.roleId) : [],
    );
    expect(new Set(stored).size).toBe(optionCount - mbti);
    expect(stored.every((id) => roles().some((role) => role.id === id))).toBe(true);

    const since = await lastSeq();
    const second = await run('personality-roles.generate');
    expect(second.result).toMatchObject({ ok: true, created: 0 });
    expect(roles()).toHaveLength(fixtureRoles + optionCount - mbti);
    expect(await writesSince(since)).toEqual([]);

    // The scheduler of the 5-minute refresh exists, once, with its period.
    const scheduler = await jobs.queue.getJobScheduler(
      jobSchedulerIdFor('personality-roles.refresh', STATION),
    );
    expect(scheduler?.every).toBe(PERSONALITY_REFRESH_INTERVAL_MS);
  });

  it('refuses to pass the 250-role cap before creating anything', async () => {
    await init();
    const sandbox = control(harness.sandbox);
    const filler = 250 - fixtureRoles - optionCount + 1;
    for (let i = 0; i < filler; i += 1) {
      await sandbox.botRest('POST', `/guilds/${STATION}/roles`, { name: `filler ${i}` });
    }
    const before = roles().length;
    const outcome = await run('personality-roles.generate');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toMatch(/above Discord's limit of 250/);
    expect(roles()).toHaveLength(before);
    for (const role of roles().filter((r) => r.name.startsWith('filler '))) {
      await sandbox.botRest('DELETE', `/guilds/${STATION}/roles/${role.id}`);
    }
  });

  it('post puts one message per enabled question in the channel; a second run writes nothing', async () => {
    await init();
    expect((await run('personality-roles.generate')).state).toBe('completed');
    const first = await run('personality-roles.post');
    expect(first.state).toBe('completed');
    expect(first.result).toMatchObject({ ok: true, summary: 'Messages: 10 posted.' });
    const posted = messagesIn(rolesChannel);
    expect(posted).toHaveLength(10);
    const questions = await loadPersonalityQuestions(db(), STATION);
    for (const question of questions) {
      const message = posted.find((m) => m.id === question.messageId);
      expect(message, question.questionType).toBeDefined();
      expect(question.messageChannelId).toBe(rolesChannel);
      expect(personalityMessageSignature(message ?? {})).toBe(
        personalityMessageSignature(messageBodyOf(question)),
      );
    }
    expect((await loadPersonalityConfig(db(), STATION)).messagesPosted).toBe(true);

    const since = await lastSeq();
    const second = await run('personality-roles.post');
    expect(second.result).toMatchObject({ summary: 'Messages: 10 already up to date.' });
    expect(await writesSince(since)).toEqual([]);
    expect(messagesIn(rolesChannel)).toHaveLength(10);
  });

  it('post deletes a disabled question message and moves every message when the channel changes', async () => {
    await init();
    await run('personality-roles.generate');
    await run('personality-roles.post');
    await setEnabled('zodiac', false);
    const after = await run('personality-roles.post');
    expect(after.result).toMatchObject({
      summary: 'Messages: 1 removed (question disabled), 9 already up to date.',
    });
    expect(messagesIn(rolesChannel)).toHaveLength(9);

    await db().update(personalityConfigs).set({ assignChannelId: announcements });
    const moved = await run('personality-roles.post');
    expect(moved.result).toMatchObject({ summary: 'Messages: 9 moved to the new channel.' });
    expect(messagesIn(rolesChannel)).toHaveLength(0);
    expect(messagesIn(announcements)).toHaveLength(9);
    const stored = await loadPersonalityQuestions(db(), STATION);
    expect(stored.filter((q) => q.messageChannelId === announcements)).toHaveLength(9);
  });

  it('a refresh brings back a deleted role and a deleted message, re-edits a stale one, and records it', async () => {
    await init();
    await run('personality-roles.generate');
    await run('personality-roles.post');
    const sandbox = control(harness.sandbox);
    const [pronouns, zodiac] = await Promise.all(
      ['pronouns', 'zodiac'].map(async (type) =>
        (await loadPersonalityQuestions(db(), STATION)).find((q) => q.questionType === type),
      ),
    );
    const deletedRole = pronouns?.options[0]?.roleId;
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${deletedRole}`, {
      method: 'DELETE',
    });
    await fetch(`${harness.sandbox.url}/_sandbox/channels/${rolesChannel}/messages/${zodiac?.messageId}`, {
      method: 'DELETE',
    });
    // An admin renamed an answer since the messages were posted: the pronouns message is stale.
    await db()
      .update(personalityOptions)
      .set({ label: 'Any pronouns' })
      .where(eq(personalityOptions.id, pronouns?.options[3]?.id ?? 0));

    const refreshed = await run('personality-roles.refresh');
    expect(refreshed.state).toBe('completed');
    expect(refreshed.result).toMatchObject({
      summary: '1 role created, 1 message re-posted, 1 message updated.',
    });
    const now = await loadPersonalityQuestions(db(), STATION);
    const newRole = now.find((q) => q.questionType === 'pronouns')?.options[0]?.roleId;
    expect(newRole).not.toBe(deletedRole);
    expect(roles().some((role) => role.id === newRole && role.name === 'He/Him')).toBe(true);
    const newZodiac = now.find((q) => q.questionType === 'zodiac')?.messageId;
    expect(messagesIn(rolesChannel).some((m) => m.id === newZodiac)).toBe(true);
    const stale = messagesIn(rolesChannel).find((m) => m.id === pronouns?.messageId);
    expect(JSON.stringify(stale?.components)).toContain('Any pronouns');
    expect(await lastRefresh()).toMatchObject({
      summary: '1 role created, 1 message re-posted, 1 message updated.',
      repaired: 3,
    });
    await sandbox.clearFaults();

    // Steady state: nothing to repair, and not one Discord request: the worker read the
    // messages back and heard of no delete since, and roles come from its gateway cache.
    const since = await lastSeq();
    const steady = await run('personality-roles.refresh');
    expect(steady.result).toMatchObject({ summary: 'Everything was in place.' });
    expect((await requests()).filter((request) => request.seq > since)).toEqual([]);
    expect(await lastRefresh()).toMatchObject({ repaired: 0 });

    // A message deleted by someone: the worker hears of it, so the next refresh reads the channel.
    const gender = now.find((q) => q.questionType === 'gender');
    await fetch(`${harness.sandbox.url}/_sandbox/channels/${rolesChannel}/messages/${gender?.messageId}`, {
      method: 'DELETE',
    });
    await waitFor('the worker to hear of the delete', () => !isVerified(worker.client, STATION));
    const repaired = await run('personality-roles.refresh');
    expect(repaired.result).toMatchObject({ summary: '1 message re-posted.' });
  });

  it('a scheduled refresh, which keeps the setup between runs, sees a change made in Postgres', async () => {
    await init();
    await run('personality-roles.generate');
    await run('personality-roles.post');
    const scheduled = async () =>
      jobs.finished((await jobs.add('personality-roles.refresh', STATION, null)).id ?? '');
    expect((await scheduled()).result).toMatchObject({ summary: 'Everything was in place.' });
    // By hand, not through the API: only the database's announcement tells the worker.
    await setEnabled('dm_status', false);
    await waitFor('a scheduled refresh to remove the DM Status message', async () => {
      await scheduled();
      const dm = (await loadPersonalityQuestions(db(), STATION)).find((q) => q.questionType === 'dm_status');
      return dm?.messageId === null;
    });
    expect(messagesIn(rolesChannel)).toHaveLength(9);
  });

  it('a refresh before the first post makes roles but posts no message', async () => {
    await init();
    const outcome = await run('personality-roles.refresh');
    expect(outcome.result).toMatchObject({ summary: `${optionCount} roles created.` });
    expect(messagesIn(rolesChannel)).toHaveLength(0);
  });

  it('a refresh shows on the page that the bot lost Manage Roles', async () => {
    await init();
    await run('personality-roles.generate');
    const botRole = roles().find((role) => role.name === 'Space Cadet');
    if (!botRole) throw new Error('fixture changed: no Space Cadet role');
    const setPermissions = (permissions: string) =>
      fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${botRole.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ permissions }),
      });
    await setPermissions('0');
    try {
      await waitFor(
        'the worker to see the change',
        () =>
          worker.client.guilds.cache.get(STATION)?.roles.cache.get(botRole.id)?.permissions.bitfield === 0n,
      );
      const outcome = await run('personality-roles.refresh');
      expect(outcome.result).toMatchObject({
        summary: 'Everything was in place.',
        warnings: [MANAGE_ROLES_WARNING],
      });
      expect((await lastRefresh())?.summary).toBe(`Everything was in place. ${MANAGE_ROLES_WARNING}`);
    } finally {
      await setPermissions(String(botRole.permissions));
    }
  });

  it('a refresh of a deleted channel records why it failed', async () => {
    await init();
    await run('personality-roles.post');
    await db().update(personalityConfigs).set({ assignChannelId: '300000000000000099' });
    const outcome = await run('personality-roles.refresh');
    expect(outcome.state).toBe('failed');
    expect((await lastRefresh())?.summary).toMatch(/^Failed: /);
  });

  it('reset deletes the roles and messages it made, the schedule, and is the same run twice', async () => {
    await init();
    await run('personality-roles.generate');
    await run('personality-roles.post');
    expect(personalityRoles()).toHaveLength(optionCount);
    await retirePersonalitySetup(db(), STATION);
    expect((await loadPersonalityConfig(db(), STATION)).configured).toBe(false);
    expect(await db().select().from(personalityCleanup)).toHaveLength(optionCount + 10);
    const first = await run('personality-roles.reset');
    expect(first.result).toMatchObject({ ok: true, deleted: optionCount + 10 });
    expect(personalityRoles()).toHaveLength(0);
    expect(roles()).toHaveLength(fixtureRoles);
    expect(messagesIn(rolesChannel)).toHaveLength(0);
    expect(await db().select().from(personalityQuestions)).toHaveLength(0);
    expect(await db().select().from(personalityCleanup)).toHaveLength(0);
    expect(
      await jobs.queue.getJobScheduler(jobSchedulerIdFor('personality-roles.refresh', STATION)),
    ).toBeUndefined();

    const since = await lastSeq();
    const second = await run('personality-roles.reset');
    expect(second.result).toMatchObject({ ok: true, deleted: 0 });
    expect(await writesSince(since)).toEqual([]);
  });

  it('each job run twice gives the state of one run', async () => {
    await init();
    for (const name of [
      'personality-roles.generate',
      'personality-roles.post',
      'personality-roles.refresh',
    ] as const) {
      await run(name);
      const roleIds = roles()
        .map((role) => role.id)
        .sort();
      const messageIds = messagesIn(rolesChannel)
        .map((m) => m.id)
        .sort();
      const since = await lastSeq();
      await run(name);
      expect(
        roles()
          .map((role) => role.id)
          .sort(),
        name,
      ).toEqual(roleIds);
      expect(
        messagesIn(rolesChannel)
          .map((m) => m.id)
          .sort(),
        name,
      ).toEqual(messageIds);
      expect(await writesSince(since), name).toEqual([]);
    }
  });
});
