import { type ImpactPreview, jobIdFor, routePath, routes } from '@spacecadet/contract';
import { roleBoostUserId, rolesResetImpact } from '@spacecadet/core';
import {
  colorGroups,
  colors,
  levelingBoosts,
  memberRolePicks,
  personalityOptions,
  personalityQuestions,
  roleMenus,
} from '@spacecadet/db';
import { attachSnapshot, loadHistoryEntry } from '@spacecadet/db/queries/history';
import { createOwnMenu, saveReactionLists } from '@spacecadet/db/queries/role-menus';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_PENDING_MESSAGE } from '../src/history/undo.ts';
import { COUNTED_FROM_PICKS } from '../src/services/reset-impact.ts';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

const guildId = GUILDS.station;
const { stationCrew, stationManagers } = SANDBOX_IDS.roles;

let h: Harness;
let ada: string;
let nia: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  nia = await signIn(h, USERS.nia);
});
afterAll(async () => {
  await h?.close();
});

const send = (method: 'GET' | 'POST', url: string, who = ada, payload?: object) =>
  h.app.inject({ method, url, headers: { authorization: who }, ...(payload ? { payload } : {}) });
const path = (name: keyof typeof routes, extra: Record<string, string> = {}) =>
  routePath(routes[name], { guildId, ...extra });
const memberListRefused = () =>
  fetch(`${h.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'GET', path: `/guilds/${guildId}/members`, status: 403, count: 1 }),
  });

describe('reset previews', () => {
  it('count the roles the reset deletes and the members holding them, and name the menus using them', async () => {
    // Two palette roles: Crew (Mo and Nia hold it) and Managers (Mo).
    const [group] = await h.database.db
      .insert(colorGroups)
      .values({ guildId, name: 'Rainbow' })
      .returning({ id: colorGroups.id });
    if (!group) throw new Error('no group');
    await h.database.db.insert(colors).values([
      { guildId, groupId: group.id, name: 'Red', hexCode: '#ff0000', roleId: stationCrew },
      { guildId, groupId: group.id, name: 'Blue', hexCode: '#0000ff', roleId: stationManagers, position: 1 },
    ]);
    const color = await send('GET', path('previewColorReset'));
    expect(color.statusCode, color.body).toBe(200);
    expect(color.json<ImpactPreview>()).toEqual({ summary: rolesResetImpact(2, 2), roles: 2, members: 2 });

    // Discord hides the member list: the recorded picks are counted, and the sentence says so.
    await h.database.db
      .insert(memberRolePicks)
      .values({ guildId, userId: USERS.nia, scope: 'color', targetKey: 'color:1' });
    await memberListRefused();
    const refused = await send('GET', path('previewColorReset'));
    expect(refused.json<ImpactPreview>()).toEqual({
      summary: `${rolesResetImpact(2, 1)} ${COUNTED_FROM_PICKS}`,
      roles: 2,
      members: 1,
    });

    const [question] = await h.database.db
      .insert(personalityQuestions)
      .values({ guildId, questionType: 'mbti', title: 'MBTI' })
      .returning({ id: personalityQuestions.id });
    if (!question) throw new Error('no question');
    await h.database.db
      .insert(personalityOptions)
      .values({ guildId, questionId: question.id, label: 'INTJ', roleId: stationManagers });
    const personality = await send('GET', path('previewPersonalityReset'));
    expect(personality.json<ImpactPreview>()).toEqual({
      summary: rolesResetImpact(1, 1),
      roles: 1,
      members: 1,
    });

    // Menus, a reaction list and a boost use those roles: the confirmations name them.
    const menu = (title: string, roleId: string, requiredRoleId: string | null) =>
      createOwnMenu(
        h.database.db,
        guildId,
        {
          title,
          description: '',
          color: null,
          channelId: SANDBOX_IDS.channels.roles,
          style: 'buttons',
          mode: 'normal',
          maxRoles: null,
          requiredRoleId,
          options: [{ role_id: roleId, label: title, emoji: '🎮' }],
        },
        USERS.ada,
        1_000,
      );
    try {
      const games = await menu('Games', stationCrew, null);
      const pings = await menu('Pings', SANDBOX_IDS.roles.stationModerators, stationManagers);
      await saveReactionLists(
        h.database.db,
        guildId,
        { color_roles: [{ role_id: stationCrew, emoji: '🔴' }], personality_roles: [] },
        USERS.ada,
      );
      await h.database.db
        .insert(levelingBoosts)
        .values({ guildId, userId: roleBoostUserId(stationCrew), multiplier: 2 });
      const colorUse = (await send('GET', path('previewColorReset'))).json<ImpactPreview>().used_by;
      expect(colorUse).toEqual({
        summary:
          'Also used by 2 role menus ("Games", "Pings"), the Color Roles reaction list and 1 role boost. They stop giving these roles until the reset is undone.',
        menus: [
          { id: expect.any(String), name: 'Color Roles' },
          { id: games?.id, name: 'Games' },
          { id: pings?.id, name: 'Pings' },
        ],
        reward_roles: 0,
        no_xp_roles: 0,
        boosts: 1,
      });
      const personalityUse = (await send('GET', path('previewPersonalityReset'))).json<ImpactPreview>();
      expect(personalityUse.used_by?.summary).toBe(
        'Also used by the role menu "Pings". They stop giving these roles until the reset is undone.',
      );
    } finally {
      await h.database.db.delete(roleMenus);
      await h.database.db.delete(levelingBoosts);
    }
  });

  it('answer 403 to a member who manages no server', async () => {
    for (const name of ['previewColorReset', 'previewPersonalityReset'] as const) {
      const response = await send('GET', path(name), nia);
      expect(response.statusCode, response.body).toBe(403);
    }
  });
});

describe('undo of Reset Color Roles', () => {
  it('is refused while the job has not stored its snapshot, then queues the restore job', async () => {
    const reset = await send('POST', path('resetColorRoles'));
    expect(reset.statusCode, reset.body).toBe(202);
    const history = await send('GET', path('listHistory'));
    const entry = history.json<{ entries: Array<{ id: number; action: string }> }>().entries[0];
    expect(entry?.action).toBe('color_roles.reset');
    if (!entry) throw new Error('no history entry');
    const undo = () =>
      send('POST', path('undoHistory', { entryId: String(entry.id) }), ada, { confirm: true });

    const pending = await undo();
    expect(pending.statusCode, pending.body).toBe(409);
    expect(pending.json()).toEqual({ error: 'conflict', message: SNAPSHOT_PENDING_MESSAGE });

    // What the reset job does before deleting anything.
    await attachSnapshot(
      h.database.db,
      guildId,
      entry.id,
      { palette: { groups: [], colors: [], shades: [] } },
      {
        ready: true,
      },
    );
    const queued = await undo();
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toMatchObject({ job_id: jobIdFor('color-roles.restore', guildId) });
    expect(
      await h.app.services.queue.forShard(0).getJobState(jobIdFor('color-roles.restore', guildId)),
    ).not.toBe('unknown');
    expect((await loadHistoryEntry(h.database.db, guildId, entry.id))?.restoreRequestedAt).not.toBeNull();
  });
});

describe('undo of Reset Personality', () => {
  it('keeps the removed setup in the entry, waits for the job holders part, then queues the restore job', async () => {
    const reset = await send('POST', path('resetPersonalityRoles'));
    expect(reset.statusCode, reset.body).toBe(202);
    const history = await send('GET', path('listHistory'));
    const entry = history.json<{ entries: Array<{ id: number; action: string }> }>().entries[0];
    expect(entry?.action).toBe('personality_roles.reset');
    if (!entry) throw new Error('no history entry');
    const stored = await loadHistoryEntry(h.database.db, guildId, entry.id);
    expect(stored?.snapshot).toMatchObject({
      questions: [{ questionType: 'mbti', options: [{ label: 'INTJ', roleId: stationManagers }] }],
    });
    expect(stored?.snapshotReady).toBeNull();
    const undo = () =>
      send('POST', path('undoHistory', { entryId: String(entry.id) }), ada, { confirm: true });
    expect((await undo()).statusCode).toBe(409);

    await attachSnapshot(
      h.database.db,
      guildId,
      entry.id,
      { holders: { [stationManagers]: [USERS.mo] }, holdersFrom: 'members' },
      { ready: true },
    );
    const queued = await undo();
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toMatchObject({ job_id: jobIdFor('personality-roles.restore', guildId) });
  });
});
