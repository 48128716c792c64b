import { autoRolesJobIdFor, DEFAULT_WELCOME_SETTINGS, type WelcomeSettings } from '@spacecadet/contract';
import { saveWelcomeSettings } from '@spacecadet/db/queries/welcome';
import { stickyRoles, tempRoles } from '@spacecadet/db/schema';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awaitingKey, lastRolesKey } from '../src/features/auto-roles/keys.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

/**
 * Auto-roles and sticky roles against the sandbox with the real discord.js client: joins get
 * their roles after the delay, a role that cannot be given is skipped without failing the others,
 * a leaver's roles come back on rejoin (not the excluded ones, not after the retention), a delayed
 * join outlives a worker restart. A raid of joins: auto-roles-raid.test.ts.
 */
describe('auto-roles and sticky roles', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let redis: Redis;
  let serial = 0;
  const roles: Record<'a' | 'b' | 'c' | 'gone', string> = { a: '', b: '', c: '', gone: '' };
  let aboveBot = '';

  const sandbox = () => control(harness.sandbox);
  const db = () => harness.database.db;
  const call = <T>(method: string, path: string, body?: unknown) => sandbox().call<T>(method, path, body);
  const settings = (partial: Partial<WelcomeSettings>) =>
    saveWelcomeSettings(db(), STATION, {
      ...DEFAULT_WELCOME_SETTINGS,
      auto_roles: [],
      bot_auto_roles: [],
      sticky_exclude_role_ids: [],
      ...partial,
    });
  const newUser = async (bot = false) => {
    serial += 1;
    return (await call<{ id: string }>('POST', '/_sandbox/users', { username: `joiner_${serial}`, bot })).id;
  };
  const join = (userId: string) =>
    call<{ joined_at: string }>('PUT', `/_sandbox/guilds/${STATION}/members/${userId}`);
  const leave = (userId: string) => call('DELETE', `/_sandbox/guilds/${STATION}/members/${userId}`);
  const holds = (userId: string, roleIds: readonly string[]) =>
    waitFor(
      `member ${userId} to hold ${roleIds.join(', ')}`,
      () =>
        roleIds.every((roleId) => memberRoles(harness.sandbox, STATION, userId).includes(roleId)) ||
        undefined,
    );
  const giveJob = (userId: string, joinedAt: string) =>
    jobs.finished(autoRolesJobIdFor(STATION, userId, joinedAt));
  const createRole = async (name: string) =>
    (await sandbox().botRest<{ id: string }>('POST', `/guilds/${STATION}/roles`, { name })).id;

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    redis = new Redis(harness.redis.url);
    roles.a = await createRole('Cadet');
    roles.b = await createRole('Pilot');
    roles.c = await createRole('Quartermaster');
    roles.gone = await createRole('Short-lived');
    await sandbox().botRest('DELETE', `/guilds/${STATION}/roles/${roles.gone}`);
    const guildRoles = guildState(harness.sandbox, STATION).roles;
    const botPosition = guildRoles.find((role) => role.id === SANDBOX_IDS.roles.stationBot)?.position ?? 0;
    aboveBot = guildRoles.find((role) => role.position > botPosition)?.id ?? '';
    expect(aboveBot).not.toBe('');
  });
  afterAll(async () => {
    redis?.disconnect();
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  it('gives humans the auto-roles and bots the bot auto-roles, after the delay', async () => {
    await settings({ auto_roles: [roles.a, roles.b], bot_auto_roles: [roles.c], auto_role_delay_s: 1 });
    const human = await newUser();
    const bot = await newUser(true);
    const [humanJoin, botJoin] = await Promise.all([join(human), join(bot)]);
    await holds(human, [roles.a, roles.b]);
    await holds(bot, [roles.c]);
    expect((await giveJob(human, humanJoin.joined_at)).state).toBe('completed');
    const botJob = await giveJob(bot, botJoin.joined_at);
    expect(botJob.state).toBe('completed');
    // The delay: the job ran no earlier than joined_at + 1 s.
    expect(botJob.job.processedOn ?? 0).toBeGreaterThanOrEqual(Date.parse(botJoin.joined_at) + 1000);
    expect(memberRoles(harness.sandbox, STATION, human)).not.toContain(roles.c);
    expect(memberRoles(harness.sandbox, STATION, bot)).not.toContain(roles.a);
  });

  it('gives a member who joined during Membership Screening their roles only once they complete it', async () => {
    await settings({ auto_roles: [roles.a, roles.b] });
    await call('PATCH', `/_sandbox/guilds/${STATION}`, { features: ['MEMBER_VERIFICATION_GATE_ENABLED'] });
    try {
      const member = await newUser();
      const joined = await call<{ joined_at: string; pending?: boolean }>(
        'PUT',
        `/_sandbox/guilds/${STATION}/members/${member}`,
      );
      expect(joined.pending).toBe(true);
      await waitFor(
        'the worker to wait for the screening',
        async () =>
          (await redis.get(storedKey(harness, awaitingKey(STATION, member)))) === joined.joined_at ||
          undefined,
      );
      expect(await jobs.queue.getJob(autoRolesJobIdFor(STATION, member, joined.joined_at))).toBeUndefined();
      expect(memberRoles(harness.sandbox, STATION, member)).toEqual([]);
      await call('PATCH', `/_sandbox/guilds/${STATION}/members/${member}`, { pending: false, flags: 2 });
      await holds(member, [roles.a, roles.b]);
      expect((await giveJob(member, joined.joined_at)).state).toBe('completed');
    } finally {
      await call('PATCH', `/_sandbox/guilds/${STATION}`, { features: [] });
    }
  });

  it('skips a deleted role and one above the bot, and still gives the others', async () => {
    await settings({ auto_roles: [roles.gone, aboveBot, roles.a] });
    const human = await newUser();
    const { joined_at } = await join(human);
    const done = await giveJob(human, joined_at);
    expect(done.state).toBe('completed');
    expect(memberRoles(harness.sandbox, STATION, human)).toContain(roles.a);
    expect(memberRoles(harness.sandbox, STATION, human)).not.toContain(aboveBot);
    expect((done.result as { warnings?: string[] }).warnings).toHaveLength(2);
  });

  it('gives a rejoining member the roles they left with, not the excluded ones', async () => {
    await settings({ sticky_roles: true, sticky_exclude_role_ids: [roles.c] });
    const member = await newUser();
    await join(member);
    for (const roleId of [roles.b, roles.c]) {
      await call('PUT', `/_sandbox/guilds/${STATION}/members/${member}/roles/${roleId}`);
    }
    await waitFor('the worker to know the member holds both roles', async () => {
      const held = await redis.hget(storedKey(harness, lastRolesKey(STATION)), member);
      return held?.includes(roles.b) && held.includes(roles.c) ? true : undefined;
    });
    await leave(member);
    const stored = await waitFor('the sticky roles to be stored', async () => {
      const [row] = await db().select().from(stickyRoles).where(eq(stickyRoles.userId, member));
      return row;
    });
    expect(stored.roleIds).toEqual([roles.b]);
    const { joined_at } = await join(member);
    expect((await giveJob(member, joined_at)).state).toBe('completed');
    expect(memberRoles(harness.sandbox, STATION, member)).toContain(roles.b);
    expect(memberRoles(harness.sandbox, STATION, member)).not.toContain(roles.c);
    expect(await db().select().from(stickyRoles).where(eq(stickyRoles.userId, member))).toEqual([]);
  });

  it('does not give back a temporary role that ran out while the member was away', async () => {
    await settings({ sticky_roles: true });
    const member = await newUser();
    await join(member);
    await call('PUT', `/_sandbox/guilds/${STATION}/members/${member}/roles/${roles.b}`);
    await waitFor('the worker to know the member holds the role', async () => {
      const held = await redis.hget(storedKey(harness, lastRolesKey(STATION)), member);
      return held?.includes(roles.b) ? true : undefined;
    });
    await leave(member);
    await waitFor('the sticky roles to be stored', async () => {
      const [row] = await db().select().from(stickyRoles).where(eq(stickyRoles.userId, member));
      return row;
    });
    // It was a temporary role; it expired after they left (as the expiry marks it when they are away).
    const expiredAt = new Date();
    await db().insert(tempRoles).values({
      guildId: STATION,
      userId: member,
      roleId: roles.b,
      expiresAt: expiredAt,
      grantedBy: SANDBOX_IDS.users.ada,
      source: 'api',
      state: 'ended',
      endReason: 'expired_absent',
      endedAt: expiredAt,
    });
    const before = harness.sandbox.world.requests.at(-1)?.seq ?? 0;
    const { joined_at } = await join(member);
    expect((await giveJob(member, joined_at)).state).toBe('completed');
    expect(memberRoles(harness.sandbox, STATION, member)).not.toContain(roles.b);
    // Not given and taken back again: never given.
    const given = harness.sandbox.world.requests.filter(
      (request) =>
        request.seq > before &&
        request.method === 'PUT' &&
        request.path === `/guilds/${STATION}/members/${member}/roles/${roles.b}`,
    );
    expect(given).toEqual([]);
  });

  it('does not give back the roles of a leave older than the retention', async () => {
    await settings({ sticky_roles: true, auto_roles: [roles.a] });
    const member = await newUser();
    const longAgo = new Date(Date.now() - 31 * 24 * 3600_000);
    await db()
      .insert(stickyRoles)
      .values({ guildId: STATION, userId: member, roleIds: [roles.b], leftAt: longAgo });
    const { joined_at } = await join(member);
    expect((await giveJob(member, joined_at)).state).toBe('completed');
    expect(memberRoles(harness.sandbox, STATION, member)).toContain(roles.a);
    expect(memberRoles(harness.sandbox, STATION, member)).not.toContain(roles.b);
    // The daily purge forgets it.
    const purge = await jobs.finished((await jobs.add('auto-roles.purge-sticky')).id ?? '');
    expect(purge.state).toBe('completed');
    expect(
      await db()
        .select()
        .from(stickyRoles)
        .where(and(eq(stickyRoles.guildId, STATION), eq(stickyRoles.userId, member))),
    ).toEqual([]);
  });

  it('gives the roles of a join whose delay outlived the worker that saw it', async () => {
    await settings({ auto_roles: [roles.a], auto_role_delay_s: 2 });
    const member = await newUser();
    const { joined_at } = await join(member);
    const jobId = autoRolesJobIdFor(STATION, member, joined_at);
    await waitFor('the join to be queued', async () => (await jobs.queue.getJob(jobId)) ?? undefined);
    await worker.close();
    expect(memberRoles(harness.sandbox, STATION, member)).not.toContain(roles.a);
    worker = await startWorker(harness.config());
    await holds(member, [roles.a]);
    expect((await giveJob(member, joined_at)).state).toBe('completed');
  });
});
