import { jobIdFor, type LevelingState, routePath, routes } from '@spacecadet/contract';
import { levelingBoosts, levelingRoles, levelingSettings, memberDailyXp, memberXp } from '@spacecadet/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXPIRED_BOOST_KEEP_MS, EXPIRY_IN_PAST_MESSAGE } from '../src/services/leveling/boosts.ts';
import { LEVEL_ROLE_CAP_MESSAGE, levelTakenMessage } from '../src/services/leveling/rewards.ts';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
const station = GUILDS.station;
const orbit = GUILDS.orbit;
const path = (name: keyof typeof routes, extra: Record<string, string | number> = {}, guildId = station) =>
  routePath(routes[name], { guildId, ...extra });

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return h.app.inject({ method, url, headers: { authorization: ada }, ...(payload ? { payload } : {}) });
}

async function clearGuild(guildId: string) {
  const db = h.database.db;
  await db.delete(levelingRoles).where(eq(levelingRoles.guildId, guildId));
  await db.delete(levelingBoosts).where(eq(levelingBoosts.guildId, guildId));
  await db.delete(levelingSettings).where(eq(levelingSettings.guildId, guildId));
}

const state = async (guildId = station) =>
  (await send('GET', path('getLeveling', {}, guildId))).json<LevelingState>();

/** A role in the sandbox's guild, made with the bot's token as the worker would. */
async function discordRole(guildId: string, name: string): Promise<string> {
  const response = await fetch(`${h.sandbox.apiBase}/v10/guilds/${guildId}/roles`, {
    method: 'POST',
    headers: { authorization: 'Bot sandbox-bot-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

async function discordRoleIds(guildId: string): Promise<string[]> {
  const dump = (await (await fetch(`${h.sandbox.url}/_sandbox/state`)).json()) as {
    guilds: Array<{ id: string; roles: Array<{ id: string }> }>;
  };
  return dump.guilds.find((g) => g.id === guildId)?.roles.map((r) => r.id) ?? [];
}

/** A reward role the bot already created in Discord (role_id set, as after Sync Roles). */
async function createdRewardRole(guildId: string, name: string, level: number) {
  const roleId = await discordRole(guildId, name);
  const [row] = await h.database.db
    .insert(levelingRoles)
    .values({ guildId, roleName: name, levelRequired: level, roleId })
    .returning();
  if (!row) throw new Error('no row');
  return { row, roleId };
}

const syncJobState = () =>
  h.app.services.queue.forShard(0).getJobState(jobIdFor('leveling.sync-roles', station));
const forgetSyncJob = () => h.app.services.queue.forShard(0).remove(jobIdFor('leveling.sync-roles', station));

describe('settings clamps', () => {
  it('stores out-of-range numbers clamped and answers what was stored', async () => {
    const response = await send('PUT', path('putLeveling'), {
      xp_multiplier: -3,
      xp_per_message: 5000,
      message_cooldown_sec: 9999,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      xp_multiplier: 0,
      xp_per_message: 1000,
      message_cooldown_sec: 600,
    });
    expect((await state()).leveling).toMatchObject({
      xp_multiplier: 0,
      xp_per_message: 1000,
      message_cooldown_sec: 600,
    });
    const low = await send('PUT', path('putLeveling'), { xp_per_message: -4, message_cooldown_sec: 12.6 });
    expect(low.json()).toMatchObject({ xp_per_message: 0, message_cooldown_sec: 13 });
  });

  it('still refuses a multiplier over 100 and non-numbers, changing nothing', async () => {
    const before = await state();
    for (const body of [{ xp_multiplier: 101 }, { xp_per_message: '12' }, { message_cooldown_sec: null }]) {
      const response = await send('PUT', path('putLeveling'), body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBe('invalid_input');
    }
    expect(await state()).toEqual(before);
  });
});

describe('reward roles', () => {
  beforeEach(() => clearGuild(station));

  it('refuses a second role for the same level, naming the one there', async () => {
    const first = await send('POST', path('createLevelingRole'), { role_name: 'Rookie', level_required: 5 });
    expect(first.statusCode, first.body).toBe(201);
    const again = await send('POST', path('createLevelingRole'), { role_name: 'Other', level_required: 5 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'conflict', message: levelTakenMessage(5, 'Rookie') });
    expect((await state()).roles.map((r) => r.role_name)).toEqual(['Rookie']);

    const second = await send('POST', path('createLevelingRole'), {
      role_name: 'Veteran',
      level_required: 10,
    });
    const id = second.json().id as number;
    const moved = await send('PUT', path('updateLevelingRole', { roleId: id }), { level_required: 5 });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toBe(levelTakenMessage(5, 'Rookie'));
    // Its own level is not "taken"; another free one is fine.
    const same = await send('PUT', path('updateLevelingRole', { roleId: id }), { level_required: 10 });
    expect(same.statusCode, same.body).toBe(200);
    const free = await send('PUT', path('updateLevelingRole', { roleId: id }), { level_required: 12 });
    expect(free.json()).toMatchObject({ role_name: 'Veteran', level_required: 12 });
  });

  it('caps a server at 15, with a message saying what to do', async () => {
    for (let level = 1; level <= 15; level++) {
      const response = await send('POST', path('createLevelingRole'), { level_required: level });
      expect(response.statusCode, response.body).toBe(201);
    }
    const sixteenth = await send('POST', path('createLevelingRole'), { level_required: 16 });
    expect(sixteenth.statusCode).toBe(409);
    expect(sixteenth.json()).toEqual({ error: 'conflict', message: LEVEL_ROLE_CAP_MESSAGE });
    expect((await state()).roles).toHaveLength(15);
  });

  it('holds the cap and the one-role-per-level rule under concurrent adds', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send('POST', path('createLevelingRole'), { level_required: i % 17 }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(15);
    expect(responses.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    const levels = (await state()).roles.map((r) => r.level_required);
    expect(new Set(levels).size).toBe(levels.length);
  });

  it('queues Sync Roles when a created role is edited, not for a pending one or no change', async () => {
    const { row } = await createdRewardRole(station, 'Pilot', 3);
    await forgetSyncJob();
    const pending = await send('POST', path('createLevelingRole'), { role_name: 'Cadet', level_required: 1 });
    const renamePending = await send('PUT', path('updateLevelingRole', { roleId: pending.json().id }), {
      role_name: 'Junior Cadet',
    });
    expect(renamePending.statusCode, renamePending.body).toBe(200);
    const unchanged = await send('PUT', path('updateLevelingRole', { roleId: row.id }), {
      role_name: 'Pilot',
    });
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    expect(await syncJobState()).toBe('unknown');

    const rename = await send('PUT', path('updateLevelingRole', { roleId: row.id }), {
      role_name: 'Ace Pilot',
    });
    expect(rename.statusCode, rename.body).toBe(200);
    expect(rename.json()).toMatchObject({ role_name: 'Ace Pilot', role_id: row.roleId });
    expect(await syncJobState()).toBe('waiting');
  });

  it('deletes the Discord role with the reward role', async () => {
    const { row, roleId } = await createdRewardRole(station, 'Doomed', 4);
    expect(await discordRoleIds(station)).toContain(roleId);
    const response = await send('DELETE', path('deleteLevelingRole', { roleId: row.id }));
    expect(response.statusCode, response.body).toBe(204);
    expect(await discordRoleIds(station)).not.toContain(roleId);
    expect((await state()).roles).toEqual([]);
  });

  it('deletes the reward role when its Discord role is already gone', async () => {
    const { row, roleId } = await createdRewardRole(station, 'Gone', 4);
    const removed = await fetch(`${h.sandbox.url}/_sandbox/guilds/${station}/roles/${roleId}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(200);
    const response = await send('DELETE', path('deleteLevelingRole', { roleId: row.id }));
    expect(response.statusCode, response.body).toBe(204);
    expect((await state()).roles).toEqual([]);
  });

  it('keeps the reward role and answers 503 when Discord fails, then finishes on retry', async () => {
    const { row, roleId } = await createdRewardRole(station, 'Sturdy', 6);
    const fault = await fetch(`${h.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'DELETE', path: `/guilds/${station}/roles/${roleId}`, status: 500 }),
    });
    expect(fault.status).toBe(200);
    const failed = await send('DELETE', path('deleteLevelingRole', { roleId: row.id }));
    expect(failed.statusCode, failed.body).toBe(503);
    expect(failed.json()).toMatchObject({ error: 'service_unavailable' });
    expect(failed.json().message).toContain('The reward role is kept');
    expect((await state()).roles.map((r) => r.role_id)).toEqual([roleId]);
    expect(await discordRoleIds(station)).toContain(roleId);

    const retry = await send('DELETE', path('deleteLevelingRole', { roleId: row.id }));
    expect(retry.statusCode, retry.body).toBe(204);
    expect(await discordRoleIds(station)).not.toContain(roleId);
  });
});

describe('boosts', () => {
  beforeEach(() => clearGuild(station));

  it('refuses an expiry in the past with a 400, and accepts a future one', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    for (const [name, body] of [
      ['createBoost', { expires_at: past }],
      ['createRoleBoost', { role_id: '300000000000000021', expires_at: past }],
    ] as const) {
      const response = await send('POST', path(name), body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_input', message: EXPIRY_IN_PAST_MESSAGE });
    }
    expect((await state()).boosts).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const ok = await send('POST', path('createBoost'), { expires_at: future, multiplier: 3 });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ multiplier: 3, expires_at: future });
  });

  it('keeps expired boosts visible for a week, then deletes them on read or add', async () => {
    const day = 86_400_000;
    const db = h.database.db;
    await db.insert(levelingBoosts).values([
      { guildId: station, multiplier: 2, expiresAt: new Date(Date.now() - day) },
      { guildId: station, multiplier: 3, expiresAt: new Date(Date.now() - EXPIRED_BOOST_KEEP_MS - day) },
      { guildId: orbit, multiplier: 4, expiresAt: new Date(Date.now() - EXPIRED_BOOST_KEEP_MS - day) },
    ]);
    expect((await state()).boosts.map((b) => b.multiplier)).toEqual([2]);
    // Another guild's rows are its own: pruned when that guild is read.
    expect(await db.select().from(levelingBoosts).where(eq(levelingBoosts.guildId, orbit))).toHaveLength(1);

    await db.insert(levelingBoosts).values({
      guildId: station,
      multiplier: 5,
      expiresAt: new Date(Date.now() - EXPIRED_BOOST_KEEP_MS - day),
    });
    expect((await send('POST', path('createBoost'), { multiplier: 6 })).statusCode).toBe(201);
    const rows = await db.select().from(levelingBoosts).where(eq(levelingBoosts.guildId, station));
    expect(rows.map((r) => r.multiplier).sort()).toEqual([2, 6]);
  });
});

describe('reset leveling', () => {
  it("deletes everything of that guild only, and the reward roles' Discord roles", async () => {
    await clearGuild(station);
    await clearGuild(orbit);
    const db = h.database.db;
    const { roleId } = await createdRewardRole(station, 'Station Star', 2);
    const orbitRole = await createdRewardRole(orbit, 'Orbit Star', 2);
    await send('POST', path('createLevelingRole'), { role_name: 'Pending', level_required: 8 });
    await send('POST', path('createBoost'), { multiplier: 2 });
    await send('PUT', path('putLeveling'), { xp_per_message: 20 });
    for (const guildId of [station, orbit]) {
      await db.insert(levelingBoosts).values({ guildId, multiplier: 2 });
      await db.insert(levelingSettings).values({ guildId, xpMin: 25, xpMax: 25 }).onConflictDoNothing();
      await db.insert(memberXp).values({ guildId, userId: USERS.ada, xp: 500, level: 3 });
      await db.insert(memberDailyXp).values({ guildId, userId: USERS.ada, day: '2026-11-23', xp: 50 });
    }

    const response = await send('POST', path('resetLevelingAll'));
    expect(response.statusCode, response.body).toBe(204);

    for (const table of [levelingRoles, levelingBoosts, levelingSettings, memberXp, memberDailyXp]) {
      expect(await db.select().from(table).where(eq(table.guildId, station))).toEqual([]);
      expect((await db.select().from(table).where(eq(table.guildId, orbit))).length).toBeGreaterThan(0);
    }
    expect(await discordRoleIds(station)).not.toContain(roleId);
    expect(await discordRoleIds(orbit)).toContain(orbitRole.roleId);
    const [orbitRow] = await db
      .select()
      .from(levelingRoles)
      .where(and(eq(levelingRoles.guildId, orbit), eq(levelingRoles.roleId, orbitRole.roleId)));
    expect(orbitRow?.roleName).toBe('Orbit Star');
  });

  it('still deletes the rows when Discord fails to delete a role', async () => {
    await clearGuild(station);
    const { roleId } = await createdRewardRole(station, 'Stubborn', 2);
    await fetch(`${h.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'DELETE', path: `/guilds/${station}/roles/${roleId}`, status: 500 }),
    });
    const response = await send('POST', path('resetLevelingAll'));
    expect(response.statusCode, response.body).toBe(204);
    expect((await state()).roles).toEqual([]);
    expect(await discordRoleIds(station)).toContain(roleId);
  });
});
