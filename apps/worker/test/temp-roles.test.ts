import { jobSchedulerIdFor, tempRoleExpiryJobId } from '@spacecadet/contract';
import { roleMenuCustomId } from '@spacecadet/core';
import { createOwnMenu, requestMenuPost } from '@spacecadet/db/queries/role-menus';
import { guildHistory, roleMenus, type TempRoleRow, tempRoles } from '@spacecadet/db/schema';
import { asc, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  finalAnswer,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  waitFor,
} from './helpers.ts';

const { ada, mo, nia, rex } = SANDBOX_IDS.users;
const { stationManagers: MANAGERS, stationModerators: MODERATORS } = SANDBOX_IDS.roles;

/**
 * Temporary roles with the real worker against the sandbox, Postgres and Redis: given by the
 * grant job, `/temprole` and a role-menu pick; taken back at expiry by the delayed run, and by
 * the sweep of Postgres when Redis lost everything; a role removed by hand is left alone; a
 * member who left and returns with the role loses it. Every grant and end is in History.
 */
describe('temporary roles', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  const db = () => harness.database.db;
  const sandbox = () => control(harness.sandbox);
  const holds = (userId: string, roleId: string) =>
    memberRoles(harness.sandbox, STATION, userId).includes(roleId);
  const rowOf = async (id: number): Promise<TempRoleRow | undefined> =>
    (await db().select().from(tempRoles).where(eq(tempRoles.id, id)))[0];
  const entries = async () =>
    (
      await db()
        .select()
        .from(guildHistory)
        .where(eq(guildHistory.guildId, STATION))
        .orderBy(asc(guildHistory.id))
    ).map((entry) => ({
      action: entry.action,
      actor: entry.actorId,
      summary: entry.summary,
      subject: entry.subject,
    }));
  const insert = async (values: Partial<typeof tempRoles.$inferInsert> & { expiresAt: Date }) => {
    const [row] = await db()
      .insert(tempRoles)
      .values({ guildId: STATION, userId: nia, roleId: MANAGERS, source: 'api', grantedBy: ada, ...values })
      .returning();
    if (!row) throw new Error('no row');
    return row;
  };
  const byHand = (method: 'PUT' | 'DELETE', userId: string, roleId: string) =>
    fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${userId}/roles/${roleId}`, { method });
  const run = async (name: 'temp-roles.grant' | 'temp-roles.expire') => {
    const outcome = await jobs.finished((await jobs.add(name)).id ?? '');
    expect(outcome.state, outcome.error).toBe('completed');
    return outcome;
  };
  const command = async (user: string, name: string, options: Record<string, string>) => {
    const result = await sandbox().command({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.general,
      user_id: user,
      name,
      options,
    });
    expect(result.responded).toBe(true);
    return finalAnswer(harness.sandbox, result);
  };

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
    // Schedulers checked often, as a lost Redis would otherwise wait a minute for them.
    worker = await startWorker(harness.config(), { scheduleCheckMs: 300 });
  });
  afterAll(async () => {
    await worker?.close();
    await jobs?.close();
    await harness?.close();
  });
  beforeEach(async () => {
    await db().delete(tempRoles);
    await db().delete(guildHistory);
    if (holds(nia, MANAGERS)) await byHand('DELETE', nia, MANAGERS);
  });

  it('gives a recorded role, then takes it back at expires_at and records the expiry', async () => {
    const row = await insert({ expiresAt: new Date(Date.now() + 4_000) });
    await run('temp-roles.grant');
    expect(holds(nia, MANAGERS)).toBe(true);
    expect((await rowOf(row.id))?.state).toBe('active');
    // The delayed run at expires_at, queued by the grant.
    await waitFor('the role to be taken back', () => !holds(nia, MANAGERS) || undefined);
    await waitFor('the row to end', async () => (await rowOf(row.id))?.state === 'ended' || undefined);
    expect((await rowOf(row.id))?.endReason).toBe('expired');
    // The History entry is written after the row ends (and its summary with it): wait for it.
    await waitFor(
      'the expiry in History',
      async () => (await entries()).some((entry) => entry.summary) || undefined,
    );
    expect(await entries()).toEqual([
      {
        action: 'temp_roles.end',
        actor: SANDBOX_IDS.bot,
        subject: `temp_roles:${row.id}`,
        summary: `The temporary role <@&${MANAGERS}> of <@${nia}> expired and was taken back`,
      },
    ]);
    // Run again: nothing more happens (idempotent), no second entry.
    await run('temp-roles.expire');
    expect(await entries()).toHaveLength(1);
  });

  it('takes a due role back from Postgres after Redis lost every job and scheduler', async () => {
    await byHand('PUT', nia, MANAGERS);
    const row = await insert({ expiresAt: new Date(Date.now() - 1_000), state: 'active' });
    const admin = new Redis(harness.redis.url);
    try {
      const keys: string[] = [];
      for await (const batch of admin.scanStream({ match: `${harness.redis.prefix}:*`, count: 500 }))
        keys.push(...(batch as string[]));
      if (keys.length > 0) await admin.del(...keys);
    } finally {
      admin.disconnect();
    }
    // No delayed run exists: the sweep the worker puts back from Postgres takes it.
    await waitFor('the sweep to take the role back', () => !holds(nia, MANAGERS) || undefined);
    await waitFor('the row to end', async () => (await rowOf(row.id))?.endReason === 'expired' || undefined);
  });

  it('a worker started after expires_at takes the role back at once (its delayed run is overdue)', async () => {
    await byHand('PUT', nia, MANAGERS);
    const row = await insert({ expiresAt: new Date(Date.now() + 1_000), state: 'active' });
    // Its delayed run, as the grant queued it, falls due while no worker runs.
    await jobs.queue.add(
      'temp-roles.expire',
      { guild_id: STATION, requested_by: null },
      { jobId: tempRoleExpiryJobId(STATION, row.id, row.expiresAt), delay: 1_000 },
    );
    await worker.close();
    await waitFor('the expiry to pass', () => Date.now() > row.expiresAt.getTime() + 500 || undefined);
    expect(holds(nia, MANAGERS)).toBe(true);
    worker = await startWorker(harness.config(), { scheduleCheckMs: 300 });
    await waitFor('the role to be taken back', () => !holds(nia, MANAGERS) || undefined);
    await waitFor('the row to end', async () => (await rowOf(row.id))?.endReason === 'expired' || undefined);
  });

  it('runs the sweep only for a server with a role due within minutes', async () => {
    const sweep = jobSchedulerIdFor('temp-roles.expire', STATION);
    const swept = async () => (await jobs.queue.getJobSchedulers(0, -1)).some((s) => s.key === sweep);
    const row = await insert({ state: 'active', expiresAt: new Date(Date.now() + 30 * 86_400_000) });
    await waitFor('no sweep for a role that ends next month', async () => !(await swept()) || undefined);
    await db()
      .update(tempRoles)
      .set({ expiresAt: new Date(Date.now() + 120_000) })
      .where(eq(tempRoles.id, row.id));
    await waitFor('the sweep as its end nears', async () => (await swept()) || undefined);
  });

  it('leaves a role removed by hand alone, and says so in History', async () => {
    expect(await command(ada, 'temprole add', { member: nia, role: MANAGERS, duration: '2h' })).toMatch(
      new RegExp(`^Gave <@&${MANAGERS}> to <@${nia}> until <t:\\d+:f> \\(<t:\\d+:R>\\)\\.$`),
    );
    expect(holds(nia, MANAGERS)).toBe(true);
    const [row] = await db().select().from(tempRoles);
    expect(row).toMatchObject({ source: 'command', grantedBy: ada, state: 'active', userId: nia });
    const id = row?.id ?? 0;
    await byHand('DELETE', nia, MANAGERS);
    await waitFor('the row to end as removed by hand', async () =>
      (await rowOf(id))?.endReason === 'removed_by_hand' ? true : undefined,
    );
    // Given back by hand and then due: not the bot's to take any more.
    await byHand('PUT', nia, MANAGERS);
    await db()
      .update(tempRoles)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(tempRoles.id, id));
    await run('temp-roles.expire');
    expect(holds(nia, MANAGERS)).toBe(true);
    expect(await entries()).toEqual([
      {
        action: 'temp_roles.grant',
        actor: ada,
        subject: `temp_roles:${id}`,
        summary: `Gave <@&${MANAGERS}> to <@${nia}> for 2 hours`,
      },
      {
        action: 'temp_roles.end',
        actor: SANDBOX_IDS.bot,
        subject: `temp_roles:${id}`,
        summary: `The temporary role <@&${MANAGERS}> of <@${nia}> was removed by hand before it expired; it is left alone`,
      },
    ]);
  });

  it('/temprole: refused without Manage Roles, for a role above the bot, a bad duration; remove ends it', async () => {
    expect(await command(mo, 'temprole add', { member: nia, role: MANAGERS, duration: '1h' })).toBe(
      'You need the Manage Roles permission to give temporary roles.',
    );
    expect(await command(ada, 'temprole add', { member: nia, role: MODERATORS, duration: '1h' })).toMatch(
      /is not below my highest role/,
    );
    expect(await command(ada, 'temprole add', { member: nia, role: MANAGERS, duration: 'soon' })).toMatch(
      /^That is not a duration\./,
    );
    expect(await command(ada, 'temprole add', { member: nia, role: MANAGERS, duration: '30s' })).toMatch(
      /at least a minute/,
    );
    expect(await db().select().from(tempRoles)).toEqual([]);
    expect(holds(nia, MANAGERS)).toBe(false);

    await command(ada, 'temprole add', { member: nia, role: MANAGERS, duration: '7d' });
    expect(holds(nia, MANAGERS)).toBe(true);
    expect(await command(ada, 'temprole remove', { member: nia, role: MANAGERS })).toBe(
      `Took <@&${MANAGERS}> back from <@${nia}>.`,
    );
    expect(holds(nia, MANAGERS)).toBe(false);
    const [row] = await db().select().from(tempRoles);
    expect(row).toMatchObject({ state: 'ended', endReason: 'ended_early' });
    expect((await entries()).map((entry) => [entry.action, entry.actor])).toEqual([
      ['temp_roles.grant', ada],
      ['temp_roles.end', ada],
    ]);
    expect(await command(ada, 'temprole remove', { member: nia, role: MANAGERS })).toBe(
      `<@${nia}> has no temporary <@&${MANAGERS}>.`,
    );
  });

  it('a member away at expiry loses the role when they come back holding it', async () => {
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${rex}`, { method: 'PUT' });
    await byHand('PUT', rex, MANAGERS);
    const row = await insert({ userId: rex, state: 'active', expiresAt: new Date(Date.now() - 1_000) });
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${rex}`, { method: 'DELETE' });
    await run('temp-roles.expire');
    expect((await rowOf(row.id))?.endReason).toBe('expired_absent');
    // Back, and given the role again (as sticky roles would): it is taken.
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${rex}`, { method: 'PUT' });
    await byHand('PUT', rex, MANAGERS);
    await waitFor('the returning member to lose the role', () => !holds(rex, MANAGERS) || undefined);
    await waitFor(
      'the row to settle',
      async () => (await rowOf(row.id))?.endReason === 'expired' || undefined,
    );
  });

  it('a temporary role-menu option records the pick as a temporary role', async () => {
    const menu = await createOwnMenu(
      db(),
      STATION,
      {
        title: 'Trial',
        description: 'Try it for a day.',
        color: null,
        channelId: SANDBOX_IDS.channels.roles,
        style: 'buttons',
        mode: 'normal',
        maxRoles: null,
        requiredRoleId: null,
        options: [{ role_id: MANAGERS, label: 'Managers for a day', expires_after_s: 86_400 }],
      },
      ada,
      25,
    );
    if (!menu) throw new Error('menu not created');
    expect(await requestMenuPost(db(), STATION, menu.id)).not.toBeNull();
    expect((await jobs.finished((await jobs.add('role-menus.post')).id ?? '')).state).toBe('completed');
    const [posted] = await db().select().from(roleMenus).where(eq(roleMenus.id, menu.id));
    const messageId = posted?.messageIds[0] ?? '';
    const before = Date.now();
    const clicked = await sandbox().click({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.roles,
      message_id: messageId,
      user_id: nia,
      custom_id: roleMenuCustomId(menu.id, MANAGERS),
    });
    await finalAnswer(harness.sandbox, clicked);
    expect(holds(nia, MANAGERS)).toBe(true);
    const row = await waitFor(
      'the temporary role to be recorded',
      async () => (await db().select().from(tempRoles))[0],
    );
    expect(row).toMatchObject({ source: 'menu', state: 'active', userId: nia, grantedBy: nia });
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 86_400_000 - 1_000);
    const grant = (await entries()).find((entry) => entry.action === 'temp_roles.grant');
    expect(grant).toMatchObject({
      actor: nia,
      summary: `Gave <@&${MANAGERS}> to <@${nia}> for 1 day (picked on a role menu)`,
    });
  });
});
