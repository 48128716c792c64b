import {
  type HistoryAction,
  type HistoryList,
  jobIdFor,
  type LevelingState,
  routePath,
  routes,
} from '@spacecadet/contract';
import {
  channelBoostUserId,
  levelingResetImpact,
  rewardRoleDeleteImpact,
  roleBoostUserId,
} from '@spacecadet/core';
import { levelingBoosts, levelingRoles, levelingSettings, memberDailyXp, memberXp } from '@spacecadet/db';
import {
  beginHistoryEntry,
  completeHistoryEntry,
  type HistoryCompletion,
  recordHistoryEntry,
} from '@spacecadet/db/queries/history';
import { guildHistory } from '@spacecadet/db/schema';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PRUNE_RUNNING_MESSAGE, SYNC_ROLES_NOT_QUEUED } from '../src/history/restore-leveling.ts';
import { appWithRedisDown, CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
let nia: string;
const station = GUILDS.station;
const path = (name: keyof typeof routes, extra: Record<string, string | number> = {}) =>
  routePath(routes[name], { guildId: station, ...extra });

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  nia = await signIn(h, USERS.nia);
});
afterAll(async () => {
  await h?.close();
});

function send(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, as = ada) {
  return h.app.inject({ method, url, headers: { authorization: as }, ...(payload ? { payload } : {}) });
}

const state = async () => (await send('GET', path('getLeveling'))).json<LevelingState>();

async function lastEntry(action: HistoryAction) {
  const [row] = await h.database.db
    .select()
    .from(guildHistory)
    .where(and(eq(guildHistory.guildId, station), eq(guildHistory.action, action)))
    .orderBy(desc(guildHistory.id))
    .limit(1);
  if (!row) throw new Error(`no ${action} entry`);
  return row;
}

/** An entry as a recorded request leaves it (for states the routes cannot make any more). */
async function recordedEntry(action: HistoryAction, subject: string, completion: HistoryCompletion) {
  const db = h.database.db;
  const id = await beginHistoryEntry(db, {
    guildId: station,
    actorId: USERS.ada,
    actorName: 'ada',
    actorAvatar: null,
    area: 'leveling',
    action,
    subject,
  });
  await completeHistoryEntry(db, id, completion);
  return id;
}

const undo = async (action: HistoryAction) =>
  send('POST', path('undoHistory', { entryId: (await lastEntry(action)).id }), { confirm: true });

async function clearGuild() {
  const db = h.database.db;
  await db.delete(levelingRoles).where(eq(levelingRoles.guildId, station));
  await db.delete(levelingBoosts).where(eq(levelingBoosts.guildId, station));
  await db.delete(levelingSettings).where(eq(levelingSettings.guildId, station));
  await db.delete(memberXp).where(eq(memberXp.guildId, station));
  await db.delete(memberDailyXp).where(eq(memberDailyXp.guildId, station));
}

const xpRows = () =>
  h.database.db
    .select({ userId: memberXp.userId, xp: memberXp.xp, level: memberXp.level, leftAt: memberXp.leftAt })
    .from(memberXp)
    .where(eq(memberXp.guildId, station))
    .orderBy(asc(memberXp.userId));

const dailyRows = () =>
  h.database.db
    .select({ userId: memberDailyXp.userId, day: memberDailyXp.day, xp: memberDailyXp.xp })
    .from(memberDailyXp)
    .where(eq(memberDailyXp.guildId, station))
    .orderBy(asc(memberDailyXp.userId), asc(memberDailyXp.day));

beforeEach(clearGuild);

describe('settings, reward roles, boosts and XP: undo writes the state before back', () => {
  it('undoes a settings change, saying what changed', async () => {
    expect(
      (await send('PUT', path('putLeveling'), { xp_per_message: 15, message_cooldown_sec: 60 })).statusCode,
    ).toBe(200);
    const put = await send('PUT', path('putLeveling'), { xp_per_message: 20, message_cooldown_sec: 30 });
    expect(put.statusCode, put.body).toBe(200);
    const entry = await lastEntry('leveling.settings');
    expect(entry.subject).toBe('leveling:settings');
    expect(entry.summary).toBe('Changed the leveling settings: XP per message 15 → 20, cooldown 60 s → 30 s');
    const undone = await undo('leveling.settings');
    expect(undone.statusCode, undone.body).toBe(200);
    expect((await state()).leveling).toMatchObject({ xp_per_message: 15, message_cooldown_sec: 60 });
  });

  it('records nothing when the settings are saved as they were: every settings entry shows what changed', async () => {
    const settings = { xp_per_message: 17, no_xp_channels: [CHANNELS.general] };
    expect((await send('PUT', path('putLeveling'), settings)).statusCode).toBe(200);
    const first = await lastEntry('leveling.settings');
    const again = await send('PUT', path('putLeveling'), settings);
    expect(again.statusCode, again.body).toBe(200);
    expect((await lastEntry('leveling.settings')).id).toBe(first.id);
    const listed = (await send('GET', path('listHistory'))).json<HistoryList>();
    const settingsEntries = listed.entries.filter((entry) => entry.action === 'leveling.settings');
    expect(settingsEntries.length).toBeGreaterThan(0);
    for (const entry of settingsEntries) expect(entry.changes, entry.summary).not.toEqual([]);
  });

  it('names the members, roles and channels an entry mentions as they were then (ids kept)', async () => {
    await h.database.db.insert(memberXp).values({ guildId: station, userId: USERS.nia, xp: 10, level: 0 });
    expect((await send('PUT', path('setMemberXp', { userId: USERS.nia }), { xp: 50 })).statusCode).toBe(200);
    const boost = await send('POST', path('createChannelBoost'), {
      channel_id: CHANNELS.general,
      multiplier: 2,
      expires_at: null,
    });
    expect(boost.statusCode, boost.body).toBe(201);
    const roleBoost = await send('POST', path('createRoleBoost'), {
      role_id: SANDBOX_IDS.roles.stationCrew,
      multiplier: 3,
      expires_at: null,
    });
    expect(roleBoost.statusCode, roleBoost.body).toBe(201);
    const [roleEntry, channelEntry, xpEntry] = (await send('GET', path('listHistory'))).json<HistoryList>()
      .entries;
    expect(xpEntry?.summary).toContain(`<@${USERS.nia}>`);
    expect(xpEntry?.refs).toEqual({ [USERS.nia]: { kind: 'member', name: 'Nia' } });
    expect(channelEntry?.refs).toEqual({ [CHANNELS.general]: { kind: 'channel', name: 'general' } });
    expect(roleEntry?.refs[SANDBOX_IDS.roles.stationCrew]).toMatchObject({ kind: 'role' });
  });

  it("refuses with a 400 naming it a settings undo whose channel is not the server's (any more)", async () => {
    const now = (await state()).leveling;
    const id = await recordedEntry('leveling.settings', 'leveling:settings', {
      summary: 'Changed the leveling settings',
      undoKind: 'state',
      before: { ...now, announcement_channel: CHANNELS.orbitHangar, level_up_destination: 'channel' },
      after: now,
    });
    const refused = await send('POST', path('undoHistory', { entryId: id }), { confirm: true });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/announcement_channel/);
    expect((await state()).leveling).toEqual(now);
    expect((await lastEntry('leveling.settings')).undoneBy).toBeNull();
  });

  it('undoes Reset settings, queueing Sync Roles when the reward mode comes back', async () => {
    await send('PUT', path('putLeveling'), { enabled: true, reward_mode: 'highest', xp_per_message: 33 });
    await h.app.services.queue.forShard(0).remove(jobIdFor('leveling.sync-roles', station));
    expect((await send('POST', path('resetLevelingConfig'))).statusCode).toBeLessThan(300);
    expect((await state()).leveling.xp_per_message).not.toBe(33);
    const undone = await undo('leveling.reset_config');
    expect(undone.statusCode, undone.body).toBe(202);
    expect(undone.json().job_id).toBe(jobIdFor('leveling.sync-roles', station));
    expect((await state()).leveling).toMatchObject({
      enabled: true,
      reward_mode: 'highest',
      xp_per_message: 33,
    });
  });

  it('a new level curve queues Recompute Levels (the same curve does not); its undo restores the curve and queues it again', async () => {
    const queue = h.app.services.queue.forShard(0);
    const recomputeJob = jobIdFor('leveling.recompute-levels', station);
    await queue.remove(recomputeJob);
    const decay = await send('PUT', path('putLeveling'), {
      xp_decay: { percent_per_week: 5, after_inactive_days: 30 },
    });
    expect(decay.statusCode, decay.body).toBe(200);
    expect((await lastEntry('leveling.settings')).summary).toBe(
      'Changed the leveling settings: XP decay off → 5% a week after 30 days',
    );
    expect(await queue.getJob(recomputeJob)).toBeUndefined();
    expect((await send('PUT', path('putLeveling'), { xp_decay: null })).statusCode).toBe(200);
    const table = { kind: 'table', xp: [100, 200, 300] };
    const put = await send('PUT', path('putLeveling'), { level_curve: table });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().level_curve).toEqual(table);
    const queued = await queue.getJob(recomputeJob);
    expect(queued?.name).toBe('leveling.recompute-levels');
    expect(queued?.data.history_entry_id).toBe((await lastEntry('leveling.settings')).id);
    expect((await lastEntry('leveling.settings')).summary).toBe(
      'Changed the leveling settings: level curve 5·L² + 50·L + 100 → a table of 3 levels',
    );
    await queue.remove(recomputeJob);

    expect((await send('PUT', path('putLeveling'), { level_curve: table })).statusCode).toBe(200);
    expect(await queue.getJob(recomputeJob)).toBeUndefined();

    const undone = await undo('leveling.settings');
    expect(undone.statusCode, undone.body).toBe(202);
    expect(undone.json().job_id).toBe(recomputeJob);
    expect((await state()).leveling.level_curve).toEqual({ kind: 'quadratic', a: 5, b: 50, c: 100 });
    await queue.remove(recomputeJob);
  });

  it('undoes adding and editing a reward role', async () => {
    const created = await send('POST', path('createLevelingRole'), {
      role_name: 'Rookie',
      level_required: 5,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const edited = await send(routes.updateLevelingRole.method, path('updateLevelingRole', { roleId: id }), {
      role_name: 'Ace',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await undo('leveling.role_update')).statusCode).toBe(200);
    expect((await state()).roles.map((r) => r.role_name)).toEqual(['Rookie']);
    expect((await undo('leveling.role_create')).statusCode).toBe(200);
    expect((await state()).roles).toEqual([]);
  });

  it('undoes adding and deleting a boost', async () => {
    const created = await send('POST', path('createBoost'), {
      multiplier: 3,
      user_id: null,
      expires_at: null,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect((await send('DELETE', path('deleteBoost', { boostId: id }))).statusCode).toBe(204);
    expect((await state()).boosts).toEqual([]);
    expect((await undo('leveling.boost_delete')).statusCode).toBe(200);
    expect((await state()).boosts).toEqual([{ id, multiplier: 3, user_id: null, expires_at: null }]);
    expect((await undo('leveling.boost_create')).statusCode).toBe(200);
    expect((await state()).boosts).toEqual([]);
  });

  it("refuses to bring back a boost whose role or channel is not the server's (400 naming it)", async () => {
    const roleBoost = {
      multiplier: 2,
      user_id: roleBoostUserId(SANDBOX_IDS.roles.quietAdmins),
      expires_at: null,
    };
    const roleEntry = await recordedEntry('leveling.boost_delete', 'leveling:boost:424242', {
      summary: 'Deleted a boost',
      undoKind: 'state',
      before: roleBoost,
      after: null,
    });
    const refused = await send('POST', path('undoHistory', { entryId: roleEntry }), { confirm: true });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message, refused.body).toMatch(/role/i);
    const channelBoost = { ...roleBoost, user_id: channelBoostUserId(CHANNELS.quietLobby) };
    const channelEntry = await recordedEntry('leveling.boost_delete', 'leveling:boost:424243', {
      summary: 'Deleted a boost',
      undoKind: 'state',
      before: channelBoost,
      after: null,
    });
    const refusedChannel = await send('POST', path('undoHistory', { entryId: channelEntry }), {
      confirm: true,
    });
    expect(refusedChannel.statusCode, refusedChannel.body).toBe(400);
    expect((await state()).boosts).toEqual([]);
    // Refused, so still undoable once the admin has fixed what is wrong.
    expect((await lastEntry('leveling.boost_delete')).undoneBy).toBeNull();
  });

  it("undoes a member's XP set with /xp in Discord (an entry recorded by the worker's way)", async () => {
    await h.database.db.insert(memberXp).values({ guildId: station, userId: USERS.nia, xp: 1200, level: 5 });
    // What apps/worker's /xp records (apps/worker/test/xp-command-history.test.ts).
    const entry = await recordHistoryEntry(h.database.db, {
      guildId: station,
      actor: { id: USERS.mo, name: 'mo', avatar: null },
      action: 'leveling.member_xp',
      noted: {
        subject: `leveling:xp:${USERS.nia}`,
        undoKind: 'state',
        before: { xp: 300 },
        after: { xp: 1200 },
        summary: `Set the XP of <@${USERS.nia}>: 300 → 1200`,
        refs: { [USERS.nia]: { kind: 'member', name: 'Nia' } },
      },
    });
    if (!entry) throw new Error('not recorded');
    const listed = (await send('GET', path('listHistory'))).json<HistoryList>().entries[0];
    expect(listed).toMatchObject({ id: entry.id, actor_id: USERS.mo, actor_name: 'mo', undoable: true });
    const undone = await send('POST', path('undoHistory', { entryId: entry.id }));
    expect(undone.statusCode, undone.body).toBe(202);
    expect((await xpRows()).map((row) => [row.userId, row.xp])).toEqual([[USERS.nia, 300]]);
  });

  it("undoes setting a member's XP, applying the rewards again", async () => {
    await h.database.db.insert(memberXp).values({ guildId: station, userId: USERS.nia, xp: 300, level: 2 });
    const set = await send('PUT', path('setMemberXp', { userId: USERS.nia }), { xp: 5000 });
    expect(set.statusCode, set.body).toBe(200);
    const undone = await undo('leveling.member_xp');
    expect(undone.statusCode, undone.body).toBe(202);
    expect(undone.json().job_id).toBe(jobIdFor('leveling.apply-rewards', station));
    expect((await xpRows()).map((row) => [row.userId, row.xp])).toEqual([[USERS.nia, 300]]);
  });
});

describe('Reset Leveling and deleting a reward role: previews, snapshots and undo', () => {
  async function seed() {
    const db = h.database.db;
    await db.insert(levelingSettings).values({ guildId: station, enabled: true, xpMin: 42, xpMax: 42 });
    await db.insert(memberXp).values([
      { guildId: station, userId: USERS.ada, xp: 1200, level: 5 },
      { guildId: station, userId: USERS.nia, xp: 90, level: 1, username: 'nia' },
      { guildId: station, userId: USERS.rex, xp: 40, level: 0, leftAt: new Date('2026-01-01T00:00:00Z') },
    ]);
    await db.insert(memberDailyXp).values([
      { guildId: station, userId: USERS.ada, day: '2026-11-25', xp: 60, messages: 4 },
      { guildId: station, userId: USERS.nia, day: '2026-11-24', xp: 30, messages: 2 },
    ]);
    const [role] = await db
      .insert(levelingRoles)
      .values({ guildId: station, roleName: 'Veteran', levelRequired: 5 })
      .returning();
    await db.insert(levelingBoosts).values({ guildId: station, multiplier: 2, userId: null });
    if (!role) throw new Error('no role');
    return role;
  }

  it('previews what Reset Leveling deletes, deletes that, and its undo puts every row back (202)', async () => {
    await seed();
    const xpBefore = await xpRows();
    const dailyBefore = await dailyRows();
    const before = await state();
    const preview = await send('GET', path('previewLevelingReset'));
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ summary: levelingResetImpact(3, 1, 1), roles: 1, members: 3 });

    const reset = await send('POST', path('resetLevelingAll'));
    expect(reset.statusCode, reset.body).toBeLessThan(300);
    expect(await xpRows()).toEqual([]);
    expect(xpBefore).toHaveLength(preview.json().members);
    expect((await lastEntry('leveling.reset_all')).summary).toBe(
      'Reset leveling: deleted the XP of 3 members, 1 reward role and 1 boost',
    );

    await h.app.services.queue.forShard(0).remove(jobIdFor('leveling.sync-roles', station));
    const undone = await undo('leveling.reset_all');
    expect(undone.statusCode, undone.body).toBe(202);
    expect(undone.json().job_id).toBe(jobIdFor('leveling.sync-roles', station));
    expect(await xpRows()).toEqual(xpBefore);
    expect(await dailyRows()).toEqual(dailyBefore);
    const after = await state();
    expect(after.leveling).toEqual(before.leveling);
    expect(after.boosts).toEqual(before.boosts);
    expect(after.roles.map((r) => [r.role_name, r.level_required, r.role_id])).toEqual([
      ['Veteran', 5, null],
    ]);
    // Undone once: a second undo is refused.
    expect((await undo('leveling.reset_all')).statusCode).toBe(409);
    // The API put it all back itself: no job is asked to finish this undo, and it is marked done.
    expect(await lastEntry('leveling.reset_all')).toMatchObject({ restoreRequestedAt: null });
    expect((await lastEntry('leveling.reset_all')).restoredAt).not.toBeNull();
  });

  it('with the job queue down, an undo of Reset Leveling puts the rows back and says to run Sync Roles', async () => {
    await seed();
    const xpBefore = await xpRows();
    expect((await send('POST', path('resetLevelingAll'))).statusCode).toBeLessThan(300);
    const entry = await lastEntry('leveling.reset_all');
    const down = await appWithRedisDown(h);
    try {
      const undone = await down.inject({
        method: 'POST',
        url: path('undoHistory', { entryId: entry.id }),
        headers: { authorization: ada },
        payload: { confirm: true },
      });
      expect(undone.statusCode, undone.body).toBe(200);
      expect(undone.json().job_id).toBeUndefined();
      expect(undone.json().entry.summary).toBe(`Undid: ${entry.summary}. ${SYNC_ROLES_NOT_QUEUED}`);
    } finally {
      await down.close();
    }
    expect(await xpRows()).toEqual(xpBefore);
    expect(await lastEntry('leveling.reset_all')).toMatchObject({ restoreRequestedAt: null });
    expect((await lastEntry('leveling.reset_all')).undoneBy).not.toBeNull();
  });

  it('previews deleting a reward role (its holders), and the undo puts it back pending (202)', async () => {
    const role = await seed();
    const preview = await send('GET', path('previewLevelingRoleDelete', { roleId: role.id }));
    expect(preview.statusCode, preview.body).toBe(200);
    // Ada (level 5) holds it; nia is below, rex left.
    expect(preview.json()).toEqual({ summary: rewardRoleDeleteImpact('Veteran', 1), roles: 1, members: 1 });
    expect((await state()).roles[0]?.holders).toBe(1);

    expect((await send('DELETE', path('deleteLevelingRole', { roleId: role.id }))).statusCode).toBe(204);
    expect((await state()).roles).toEqual([]);
    const undone = await undo('leveling.role_delete');
    expect(undone.statusCode, undone.body).toBe(202);
    expect(undone.json().job_id).toBe(jobIdFor('leveling.sync-roles', station));
    expect((await state()).roles).toEqual([
      {
        id: role.id,
        role_name: 'Veteran',
        level_required: 5,
        is_image_role: false,
        role_id: null,
        holders: 1,
      },
    ]);

    const missing = await send('GET', path('previewLevelingRoleDelete', { roleId: 999_999 }));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('No such level role');
  });

  it('previews Prune leavers with the job plan: members with XP the member list lacks', async () => {
    await seed();
    const preview = await send('GET', path('previewPruneLeavers'));
    expect(preview.statusCode, preview.body).toBe(200);
    // Rex is not in Station: his XP goes; ada and nia stay.
    expect(preview.json()).toMatchObject({ roles: 0, members: 1 });
  });

  it('undoes an XP import: imported members get their rows back, new ones lose theirs', async () => {
    await seed();
    const before = await xpRows();
    const csv = `user_id,xp\n${USERS.ada},10\n${USERS.mo},700\n`;
    const imported = await h.app.inject({
      method: 'POST',
      url: `${path('importXp')}?mode=replace`,
      headers: { authorization: ada, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect((await xpRows()).find((row) => row.userId === USERS.mo)?.xp).toBe(700);
    const undone = await undo('leveling.import');
    expect(undone.statusCode, undone.body).toBe(202);
    expect(await xpRows()).toEqual(before);
  });

  it('refuses to undo a prune while Prune leavers runs, then puts the rows back without lowering anyone', async () => {
    await seed();
    const kept = (userId: string, xp: number) => ({
      userId,
      xp,
      level: 3,
      messageCount: 1,
      lastMessageAt: null,
      username: null,
      avatar: null,
      leftAt: null,
    });
    // Ada (1200 XP now) was pruned at 500; Mo at 700 has no row now.
    const entryId = await recordedEntry('leveling.prune', 'leveling:xp', {
      summary: 'Pruned the XP of leavers',
      undoKind: 'snapshot',
      snapshot: { members: [kept(USERS.ada, 500), kept(USERS.mo, 700)], daily: [] },
    });
    const pruneJob = jobIdFor('leveling.prune-leavers', station);
    await h.app.services.queue.forShard(0).add(
      'leveling.prune-leavers',
      { guild_id: station, requested_by: USERS.ada },
      {
        jobId: pruneJob,
      },
    );
    try {
      const refused = await send('POST', path('undoHistory', { entryId }), { confirm: true });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().message).toBe(PRUNE_RUNNING_MESSAGE);
      expect((await lastEntry('leveling.prune')).undoneBy).toBeNull();
    } finally {
      await h.app.services.queue.forShard(0).remove(pruneJob);
    }
    const undone = await send('POST', path('undoHistory', { entryId }), { confirm: true });
    expect(undone.statusCode, undone.body).toBeLessThan(300);
    const xp = new Map((await xpRows()).map((row) => [row.userId, row.xp]));
    expect(xp.get(USERS.ada)).toBe(1200);
    expect(xp.get(USERS.mo)).toBe(700);
  });

  it('refuses the previews to non-managers', async () => {
    const role = await seed();
    for (const url of [
      path('previewLevelingReset'),
      path('previewPruneLeavers'),
      path('previewLevelingRoleDelete', { roleId: role.id }),
    ]) {
      expect((await send('GET', url, undefined, nia)).statusCode).toBe(403);
    }
  });
});
