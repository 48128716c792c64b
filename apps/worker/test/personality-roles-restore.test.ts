import { jobIdFor } from '@spacecadet/contract';
import { roleBoostUserId } from '@spacecadet/core';
import {
  attachSnapshot,
  beginHistoryEntry,
  claimUndo,
  completeHistoryEntry,
  loadHistoryEntry,
} from '@spacecadet/db/queries/history';
import {
  loadPersonalityConfig,
  retirePersonalitySetup,
  seedPersonalityCatalog,
} from '@spacecadet/db/queries/personality-roles';
import { snapshotPersonalitySetup } from '@spacecadet/db/queries/personality-snapshots';
import { saveReactionListChannel, saveReactionLists } from '@spacecadet/db/queries/role-menus';
import {
  levelingBoosts,
  levelingSettings,
  memberRolePicks,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
  roleMenus,
} from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  memberReacts,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  waitFor,
} from './helpers.ts';

const rolesChannel = SANDBOX_IDS.channels.roles;
const { nia, mo } = SANDBOX_IDS.users;

describe('personality-roles reset and its undo', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  const db = () => harness.database.db;
  const run = async (name: Parameters<typeof jobs.add>[0]) => jobs.finished((await jobs.add(name)).id ?? '');
  /** Queues a job as the API does for a recorded request: its payload names the history entry. */
  const runFor = async (name: 'personality-roles.reset' | 'personality-roles.restore', entryId: number) => {
    const jobId = jobIdFor(name, STATION);
    await (await jobs.queue.getJob(jobId))?.remove();
    await jobs.queue.add(
      name,
      { guild_id: STATION, requested_by: SANDBOX_IDS.users.ada, history_entry_id: entryId },
      { jobId, attempts: 3, backoff: { type: 'exponential', delay: 500 } },
    );
    return jobs.finished(jobId);
  };
  const entry = async (action: 'personality_roles.reset' | 'history.undo') => {
    const id = await beginHistoryEntry(db(), {
      guildId: STATION,
      actorId: SANDBOX_IDS.users.ada,
      actorName: 'ada',
      actorAvatar: null,
      area: 'personality_roles',
      action,
      subject: 'personality_roles',
    });
    await completeHistoryEntry(db(), id, {
      summary: action,
      undoKind: action === 'history.undo' ? null : 'snapshot',
    });
    return id;
  };
  /** What the API's reset route does: the setup into the entry, retire it, then the job. */
  const reset = async (entryId: number) => {
    const setup = await snapshotPersonalitySetup(db(), STATION);
    await retirePersonalitySetup(db(), STATION);
    await attachSnapshot(db(), STATION, entryId, { ...setup }, { ready: false });
    return runFor('personality-roles.reset', entryId);
  };
  const init = () =>
    db().transaction(async (tx) => {
      await tx
        .insert(personalityConfigs)
        .values({ guildId: STATION, assignChannelId: rolesChannel, configured: true })
        .onConflictDoUpdate({
          target: personalityConfigs.guildId,
          set: { assignChannelId: rolesChannel, configured: true },
        });
      await seedPersonalityCatalog(tx, STATION);
    });
  const roles = () => guildState(harness.sandbox, STATION).roles;
  const messagesIn = (channelId: string) =>
    guildState(harness.sandbox, STATION).channels.find((c) => c.id === channelId)?.messages ?? [];
  const give = (userId: string, roleId: string) =>
    control(harness.sandbox).botRest('PUT', `/guilds/${STATION}/members/${userId}/roles/${roleId}`);
  const everything = async () => ({
    roles: roles()
      .map((role) => `${role.id} ${role.name} ${role.position}`)
      .sort(),
    members: guildState(harness.sandbox, STATION).members.map((m) => [m.user_id, [...m.roles].sort()]),
    options: (await db().select().from(personalityOptions)).map((o) => [o.id, o.roleId]).sort(),
    messages: messagesIn(rolesChannel).map((message) => message.id),
    picks: (await db().select().from(memberRolePicks)).map((p) => `${p.userId} ${p.targetKey}`).sort(),
  });

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  afterEach(async () => {
    await retirePersonalitySetup(db(), STATION);
    expect((await run('personality-roles.reset')).state).toBe('completed');
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('the undo brings back the questions, the roles to their holders and the messages; a rerun changes nothing', async () => {
    await init();
    expect((await run('personality-roles.generate')).state).toBe('completed');
    expect((await run('personality-roles.post')).state).toBe('completed');
    const posted = messagesIn(rolesChannel).length;
    expect(posted).toBeGreaterThan(0);
    const options = await db().select().from(personalityOptions);
    const [first, second] = options;
    if (!first?.roleId || !second?.roleId) throw new Error('generate gave the options no role');
    const firstName = roles().find((role) => role.id === first.roleId)?.name;
    await give(nia, first.roleId);
    await give(mo, second.roleId);
    const roleCount = roles().length;

    const resetId = await entry('personality_roles.reset');
    expect((await reset(resetId)).state).toBe('completed');
    expect(roles().find((role) => role.id === first.roleId)).toBeUndefined();
    expect(messagesIn(rolesChannel)).toHaveLength(0);
    const stored = await loadHistoryEntry(db(), STATION, resetId);
    expect(stored?.snapshotReady).not.toBeNull();
    expect(stored?.snapshot).toMatchObject({ holdersFrom: 'members', holders: { [first.roleId]: [nia] } });

    const undoId = await entry('history.undo');
    expect(await claimUndo(db(), STATION, resetId, undoId, { restore: true })).toBe(true);
    const restore = await runFor('personality-roles.restore', undoId);
    expect(restore.state).toBe('completed');
    expect(restore.result).toMatchObject({ ok: true, created: options.length });

    expect(roles()).toHaveLength(roleCount);
    const [again] = (await db().select().from(personalityOptions)).filter((o) => o.id === first.id);
    expect(roles().find((role) => role.id === again?.roleId)?.name).toBe(firstName);
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(again?.roleId);
    const [secondAgain] = (await db().select().from(personalityOptions)).filter((o) => o.id === second.id);
    expect(memberRoles(harness.sandbox, STATION, mo)).toContain(secondAgain?.roleId);
    expect(messagesIn(rolesChannel)).toHaveLength(posted);
    expect(await loadPersonalityConfig(db(), STATION)).toMatchObject({
      configured: true,
      messagesPosted: true,
    });
    expect((await loadHistoryEntry(db(), STATION, resetId))?.restoredAt).not.toBeNull();

    const before = await everything();
    const rerun = await runFor('personality-roles.restore', undoId);
    expect(rerun.result).toMatchObject({ ok: true, summary: 'Nothing to restore.' });
    expect(await everything()).toEqual(before);
  });

  it('the undo moves the reaction list, menus, no-XP roles and boosts to the recreated roles, and gives each member exactly their answers', async () => {
    await init();
    expect((await run('personality-roles.generate')).state).toBe('completed');
    const questions = await db().select().from(personalityQuestions);
    const options = await db().select().from(personalityOptions);
    const multi = questions.find((question) => question.isMultiSelect);
    const single = questions.find((question) => !question.isMultiSelect);
    const [a, b] = options.filter((option) => option.questionId === multi?.id);
    const [c] = options.filter((option) => option.questionId === single?.id);
    if (!a?.roleId || !b?.roleId || !c?.roleId) throw new Error('generate gave the options no role');
    try {
      // nia answered two options of a multi-select question and one of a single-select one.
      await give(nia, a.roleId);
      await give(nia, b.roleId);
      await give(nia, c.roleId);
      await saveReactionLists(
        db(),
        STATION,
        {
          color_roles: [],
          personality_roles: [
            { role_id: a.roleId, emoji: '🍎' },
            { role_id: b.roleId, emoji: '🍌' },
          ],
        },
        SANDBOX_IDS.users.ada,
      );
      await saveReactionListChannel(db(), STATION, 'personality_roles', rolesChannel, SANDBOX_IDS.users.ada);
      expect((await run('reaction-roles.post-panel')).state).toBe('completed');
      await jobs.followUpsDone();
      await db()
        .insert(levelingSettings)
        .values({ guildId: STATION, noXpRoles: [b.roleId] });
      await db()
        .insert(levelingBoosts)
        .values({ guildId: STATION, userId: roleBoostUserId(c.roleId), multiplier: 2 });

      const resetId = await entry('personality_roles.reset');
      expect((await reset(resetId)).state).toBe('completed');
      const undoId = await entry('history.undo');
      expect(await claimUndo(db(), STATION, resetId, undoId, { restore: true })).toBe(true);
      const restore = await runFor('personality-roles.restore', undoId);
      expect(restore.state, restore.error).toBe('completed');
      await jobs.followUpsDone();

      const now = new Map((await db().select().from(personalityOptions)).map((o) => [o.id, o.roleId ?? '']));
      const [newA, newB, newC] = [now.get(a.id) ?? '', now.get(b.id) ?? '', now.get(c.id) ?? ''];
      expect(newA).not.toBe(a.roleId);
      const [list] = await db().select().from(roleMenus).where(eq(roleMenus.listKey, 'personality_roles'));
      expect(list?.options.map((option) => option.role_id)).toEqual([newA, newB]);
      expect((await db().select().from(levelingSettings))[0]?.noXpRoles).toEqual([newB]);
      expect((await db().select().from(levelingBoosts)).map((boost) => boost.userId)).toEqual([
        roleBoostUserId(newC),
      ]);
      const personality = new Set(now.values());
      expect(
        memberRoles(harness.sandbox, STATION, nia)
          .filter((roleId) => personality.has(roleId))
          .sort(),
      ).toEqual([newA, newB, newC].sort());
      expect((restore.result as { summary: string }).summary).toContain(
        'Moved to the new roles: 1 role menu, 1 no-XP role, 1 role boost.',
      );

      // A reaction on the Personality Roles list gives the new role.
      await memberReacts(harness.sandbox, {
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: list?.messageIds[0] ?? '',
        user_id: mo,
        emoji: '🍌',
      });
      await waitFor('the reaction to give the new role', () =>
        memberRoles(harness.sandbox, STATION, mo).includes(newB) ? true : undefined,
      );
    } finally {
      await db().delete(roleMenus);
      await db().delete(levelingSettings);
      await db().delete(levelingBoosts);
      await jobs.followUpsDone();
    }
  });
});
