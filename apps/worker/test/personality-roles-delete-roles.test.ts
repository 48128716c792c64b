import { PERSONALITY_CATALOG } from '@spacecadet/core';
import {
  loadPersonalityCleanup,
  loadPersonalityQuestions,
  retirePersonalityQuestionRoles,
  retirePersonalitySetup,
  seedPersonalityCatalog,
} from '@spacecadet/db/queries/personality-roles';
import { personalityConfigs, personalityQuestions } from '@spacecadet/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startHarness,
} from './helpers.ts';

/**
 * Initialize turns on only the chosen categories, and a disabled category's
 * message goes with the refresh its toggle queues while its roles go, when the admin asks, with
 * `personality-roles.delete-roles`; enabling it again makes new ones.
 */
const rolesChannel = SANDBOX_IDS.channels.roles;
const labelsOf = (type: string) =>
  PERSONALITY_CATALOG.find((q) => q.questionType === type)?.options.map((o) => o.label) ?? [];

describe('personality roles: chosen categories, and deleting a disabled one', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  const db = () => harness.database.db;
  const run = async (name: Parameters<typeof jobs.add>[0]) => jobs.finished((await jobs.add(name)).id ?? '');
  const roleNames = () => guildState(harness.sandbox, STATION).roles.map((role) => role.name);
  const messageIds = () =>
    (guildState(harness.sandbox, STATION).channels.find((c) => c.id === rolesChannel)?.messages ?? []).map(
      (m) => m.id,
    );
  const question = async (type: string) =>
    (await loadPersonalityQuestions(db(), STATION)).find((q) => q.questionType === type);
  const setEnabled = (type: string, enabled: boolean) =>
    db()
      .update(personalityQuestions)
      .set({ isEnabled: enabled })
      .where(and(eq(personalityQuestions.guildId, STATION), eq(personalityQuestions.questionType, type)));

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await retirePersonalitySetup(db(), STATION);
    await run('personality-roles.reset');
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  it('Initialize with two categories creates only their roles', async () => {
    const chosen = ['zodiac', 'pronouns'];
    // What the API's init does with the Initialize card's choice.
    await db().transaction(async (tx) => {
      await tx
        .insert(personalityConfigs)
        .values({ guildId: STATION, assignChannelId: rolesChannel, configured: true });
      await seedPersonalityCatalog(tx, STATION, new Set(chosen));
    });
    expect((await run('personality-roles.generate')).state).toBe('completed');
    const wanted = [...labelsOf('zodiac'), ...labelsOf('pronouns')];
    const questions = await loadPersonalityQuestions(db(), STATION);
    expect(questions.filter((q) => q.isEnabled).map((q) => q.questionType)).toEqual(chosen);
    const made = questions.flatMap((q) => q.options).filter((o) => o.roleId !== null);
    expect(made.map((o) => o.label).sort()).toEqual([...wanted].sort());
    // No role of an unchosen category exists.
    expect(roleNames().filter((name) => labelsOf('mbti').includes(name))).toEqual([]);
  });

  it('disabling removes the message with the queued refresh; delete-roles removes the roles, once', async () => {
    expect((await run('personality-roles.post')).state).toBe('completed');
    const zodiacMessage = (await question('zodiac'))?.messageId;
    expect(zodiacMessage && messageIds().includes(zodiacMessage)).toBe(true);
    const zodiacRoles = (await question('zodiac'))?.options.map((o) => o.roleId) ?? [];
    expect(zodiacRoles).toHaveLength(labelsOf('zodiac').length);

    // The toggle: stored, then the refresh the API queues.
    await setEnabled('zodiac', false);
    expect((await run('personality-roles.refresh')).state).toBe('completed');
    expect(messageIds()).not.toContain(zodiacMessage);
    // The roles stay until the admin asks.
    const ids = () => guildState(harness.sandbox, STATION).roles.map((role) => role.id);
    expect(zodiacRoles.every((id) => id !== null && ids().includes(id))).toBe(true);

    // The admin confirmed: the API moves the ids to the cleanup list, then the job.
    expect(await retirePersonalityQuestionRoles(db(), STATION, 'zodiac')).toEqual({
      outcome: 'retired',
      roles: zodiacRoles.length,
    });
    const first = await run('personality-roles.delete-roles');
    expect(first.state).toBe('completed');
    expect(first.result).toMatchObject({ ok: true, summary: `${zodiacRoles.length} roles deleted.` });
    expect(zodiacRoles.filter((id) => id !== null && ids().includes(id))).toEqual([]);
    expect(await loadPersonalityCleanup(db(), STATION)).toEqual([]);
    expect((await question('zodiac'))?.options.every((o) => o.roleId === null)).toBe(true);
    // Pronouns, still enabled, keeps its roles and message.
    expect(roleNames().filter((name) => labelsOf('pronouns').includes(name))).toHaveLength(
      labelsOf('pronouns').length,
    );

    // Asked again: nothing to do, and nothing fails.
    expect(await retirePersonalityQuestionRoles(db(), STATION, 'zodiac')).toEqual({
      outcome: 'retired',
      roles: 0,
    });
    const second = await run('personality-roles.delete-roles');
    expect(second.state).toBe('completed');
    expect(second.result).toMatchObject({ ok: true, summary: '0 roles deleted.' });
  });

  it('a role already deleted by hand counts as done', async () => {
    await setEnabled('zodiac', true);
    expect((await run('personality-roles.generate')).state).toBe('completed');
    const roleIds = (await question('zodiac'))?.options.flatMap((o) => o.roleId ?? []) ?? [];
    expect(roleIds).toHaveLength(labelsOf('zodiac').length);
    await setEnabled('zodiac', false);
    const [gone] = roleIds;
    await control(harness.sandbox).botRest('DELETE', `/guilds/${STATION}/roles/${gone}`);
    await retirePersonalityQuestionRoles(db(), STATION, 'zodiac');
    const result = await run('personality-roles.delete-roles');
    expect(result.state).toBe('completed');
    expect(result.result).toMatchObject({ summary: `${roleIds.length - 1} roles deleted.` });
    const ids = guildState(harness.sandbox, STATION).roles.map((role) => role.id);
    expect(roleIds.filter((id) => ids.includes(id))).toEqual([]);
  });
});
