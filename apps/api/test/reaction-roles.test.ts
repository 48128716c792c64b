import {
  CHANNEL_PERMISSION_BITS,
  type JobName,
  jobIdFor,
  jobQueueName,
  MAX_REACTION_LIST_ROWS,
  REACTION_PANEL_MESSAGES,
  type ReactionRolesState,
  routePath,
  routes,
} from '@spacecadet/contract';
import { roleMenus } from '@spacecadet/db';
import { loadReactionLists, saveMenuMessages } from '@spacecadet/db/queries/role-menus';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { type Job, Worker } from 'bullmq';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, storedState, USERS } from './harness.ts';

/**
 * The Reaction Roles editor's routes against real Postgres, Redis (BullMQ) and the sandbox:
 * every refusal names the list and row and stores nothing; the channel route checks the
 * channel; Post queues its job; a save queues the panels' repair only when one is posted.
 */
let h: Harness;
let ada: string;
const guildId = GUILDS.station;
const { roles: ROLES, emojis: EMOJIS } = SANDBOX_IDS;
const ROCKET = `<:rocket:${EMOJIS.stationRocket}>`;
/** Other Orbit's emoji: a custom emoji, but not Sandbox Station's. */
const COMET = `<:comet:${EMOJIS.orbitComet}>`;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

const path = (name: keyof typeof routes) => routePath(routes[name], { guildId });

function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return h.app.inject({ method, url, headers: { authorization: ada }, ...(payload ? { payload } : {}) });
}

type Row = { emoji: string; role_id: string; label?: string; description?: string };
const putLists = (color_roles: Row[], personality_roles: Row[] = []) =>
  send('PUT', path('putReactionRoles'), { color_roles, personality_roles });
const getState = async () => (await send('GET', path('getReactionRoles'))).json<ReactionRolesState>();

/** The BullMQ job of that name for the guild, if any. */
const jobOf = (name: JobName) => h.app.services.queue.forShard(0).getJob(jobIdFor(name, guildId));
const forgetJobs = async () => {
  for (const name of ['role-menus.repair', 'reaction-roles.post-panel'] as const) {
    await h.app.services.queue.forShard(0).remove(jobIdFor(name, guildId));
    await h.app.services.queue.forShard(0).remove(`${jobIdFor(name, guildId)}.followup`);
  }
};

/** A role in the sandbox's guild, made with the bot's token as the worker would. */
async function discordRole(name: string): Promise<string> {
  const response = await fetch(`${h.sandbox.apiBase}/v10/guilds/${guildId}/roles`, {
    method: 'POST',
    headers: { authorization: 'Bot sandbox-bot-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

/** A refusal: 400 with that first message, and nothing stored (rows, sessions, queue). */
async function expectRefused(request: () => ReturnType<typeof send>, message: string | RegExp) {
  const before = await storedState(h);
  const response = await request();
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ error: string; message: string }>();
  expect(body.error).toBe('invalid_input');
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
  expect(await storedState(h)).toEqual(before);
  return body;
}

/** What the worker records after posting a list's panel. */
async function markPosted(list: 'color_roles' | 'personality_roles', messageIds: string[]) {
  const menu = (await loadReactionLists(h.database.db, guildId))[list];
  if (!menu) throw new Error(`${list} was never saved`);
  await saveMenuMessages(h.database.db, menu.id, { messageIds, channelId: CHANNELS.roles });
}

/** Gives or takes a role of the bot, as an admin does in Server Settings. */
async function botRole(method: 'PUT' | 'DELETE', roleId: string) {
  const response = await fetch(
    `${h.sandbox.url}/_sandbox/guilds/${guildId}/members/${SANDBOX_IDS.bot}/roles/${roleId}`,
    { method },
  );
  expect(response.status).toBe(200);
}

beforeEach(forgetJobs);

describe('GET', () => {
  it('answers empty lists, no channels and no panels for a server never saved', async () => {
    expect(await getState()).toEqual({
      color_roles: [],
      personality_roles: [],
      channels: { color_roles: null, personality_roles: null },
      panels: { color_roles: null, personality_roles: null },
      updated_at: null,
      updated_by: null,
    });
  });
});

describe('PUT refuses, naming the list and row, what Discord would refuse later', () => {
  const crew = { emoji: '🔴', role_id: ROLES.stationCrew };

  it('a role above the bot’s highest role', async () => {
    const body = await expectRefused(
      () =>
        putLists([
          crew,
          { emoji: '🟢', role_id: ROLES.stationManagers },
          { emoji: '🔵', role_id: ROLES.stationModerators },
        ]),
      'Color roles row 3: @Moderators is above my highest role (Space Cadet); move my role above it in Server Settings → Roles, or pick another role',
    );
    expect(body).toMatchObject({ issues: [{ path: 'color_roles.2.role_id' }] });
  });

  it('the bot’s own highest role, read fresh after an admin changes the bot’s roles', async () => {
    await botRole('PUT', ROLES.stationModerators);
    try {
      await expectRefused(
        () => putLists([], [{ emoji: '🎮', role_id: ROLES.stationModerators }]),
        'Personality roles row 1: @Moderators is my highest role, and I can only give roles below it; move my role above it in Server Settings → Roles, or pick another role',
      );
    } finally {
      await botRole('DELETE', ROLES.stationModerators);
    }
    await expectRefused(
      () => putLists([], [{ emoji: '🎮', role_id: ROLES.stationModerators }]),
      /^Personality roles row 1: @Moderators is above my highest role \(Space Cadet\)/,
    );
  });

  it('a managed role (an integration’s or a bot’s own)', async () => {
    await expectRefused(
      () =>
        putLists(
          [crew],
          [
            { emoji: '🎮', role_id: ROLES.stationCrew },
            { emoji: '🤖', role_id: ROLES.stationBot },
          ],
        ),
      "Personality roles row 2: @Space Cadet belongs to an integration (a bot's or a subscription's own role), and Discord lets no one give it; pick another role",
    );
  });

  it('@everyone', async () => {
    await expectRefused(
      () => putLists([crew, { emoji: '🟢', role_id: guildId }]),
      'color_roles row 2: role_id is @everyone, which every member already has; pick another role',
    );
  });

  it('a custom emoji of another server', async () => {
    const body = await expectRefused(
      () =>
        putLists(
          [crew],
          [
            { emoji: ROCKET, role_id: ROLES.stationCrew },
            { emoji: COMET, role_id: ROLES.stationManagers },
          ],
        ),
      `Personality roles row 2: ${COMET} is not an emoji of this server; pick one of its own emojis or a standard one`,
    );
    expect(body).toMatchObject({ issues: [{ path: 'personality_roles.1.emoji' }] });
  });

  it('every problem at once, the first in the message', async () => {
    const body = await expectRefused(
      () =>
        putLists(
          [{ emoji: COMET, role_id: ROLES.stationModerators }],
          [{ emoji: '🤖', role_id: ROLES.stationBot }],
        ),
      /^Color roles row 1: @Moderators is above my highest role/,
    );
    expect(body).toMatchObject({
      issues: [
        { path: 'color_roles.0.role_id' },
        { path: 'color_roles.0.emoji' },
        { path: 'personality_roles.0.role_id' },
      ],
    });
  });

  it('the same emoji twice in one list, a text that is not one emoji, more rows than a list holds', async () => {
    await expectRefused(
      () => putLists([crew, { emoji: ' 🔴 ', role_id: ROLES.stationManagers }]),
      'Row 2: 🔴 is already used by row 1; each emoji can stand for one role',
    );
    await expectRefused(
      () =>
        putLists(
          [],
          [
            { emoji: ROCKET, role_id: ROLES.stationCrew },
            { emoji: `rocket:${EMOJIS.stationRocket}`, role_id: ROLES.stationManagers },
          ],
        ),
      /^Row 2: rocket:\d+ is already used by row 1/,
    );
    await expectRefused(
      () => putLists([], [crew, { emoji: '🟢', role_id: ` ${ROLES.stationCrew} ` }]),
      'Row 2: row 1 already gives this role; each role can have one row',
    );
    // ❤ and ❤️ are one emoji (the variation selector is only a style).
    await expectRefused(
      () =>
        putLists([
          { emoji: '❤', role_id: ROLES.stationCrew },
          { emoji: '❤️', role_id: ROLES.stationManagers },
        ]),
      'Row 2: ❤️ is already used by row 1; each emoji can stand for one role',
    );
    await expectRefused(
      () => putLists([{ emoji: 'red', role_id: ROLES.stationCrew }]),
      'Row 1: emoji must be one emoji, or a custom emoji of this server as <:name:id>',
    );
    const manyRoles: string[] = [];
    for (let i = 0; i <= MAX_REACTION_LIST_ROWS; i += 1) manyRoles.push(await discordRole(`Many ${i + 1}`));
    const many = manyRoles.map((roleId, i) => ({
      emoji: String.fromCodePoint(0x1f600 + i),
      role_id: roleId,
    }));
    await expectRefused(() => putLists([], many), `At most ${MAX_REACTION_LIST_ROWS} personality roles`);
    // Exactly the limit is accepted.
    const full = await putLists([], many.slice(0, MAX_REACTION_LIST_ROWS));
    expect(full.statusCode, full.body).toBe(200);
    expect((await getState()).personality_roles).toHaveLength(MAX_REACTION_LIST_ROWS);
  });
});

describe('PUT stores', () => {
  it('trimmed rows, this server’s custom emojis, and answers who and when', async () => {
    const response = await putLists(
      [{ emoji: ' 🔴 ', role_id: ` ${ROLES.stationCrew} `, label: 'Red', description: 'Warm' }],
      [{ emoji: ROCKET, role_id: ROLES.stationManagers }],
    );
    expect(response.statusCode, response.body).toBe(200);
    const receipt = response.json<{ updated_at: string; updated_by: string }>();
    expect(receipt).toEqual({ updated_by: USERS.ada, updated_at: expect.any(String) });
    const state = await getState();
    expect(state).toMatchObject({
      color_roles: [{ emoji: '🔴', role_id: ROLES.stationCrew, label: 'Red', description: 'Warm' }],
      personality_roles: [{ emoji: ROCKET, role_id: ROLES.stationManagers }],
      updated_at: receipt.updated_at,
      updated_by: USERS.ada,
    });
    // Nothing is posted: no repair to queue.
    expect(await jobOf('role-menus.repair')).toBeUndefined();
  });
});

describe('PUT channel', () => {
  const BOT_ROLE = ROLES.stationBot;
  const clearOverwrite = () =>
    fetch(`${h.sandbox.url}/_sandbox/channels/${CHANNELS.roles}/permissions/${BOT_ROLE}`, {
      method: 'DELETE',
    });
  afterAll(clearOverwrite);

  it('refuses a channel of another server, and an unknown list', async () => {
    await expectRefused(
      () =>
        send('PUT', path('setReactionListChannel'), {
          list: 'color_roles',
          channel_id: CHANNELS.orbitHangar,
        }),
      'channel_id is not a text channel of this server',
    );
    await expectRefused(
      () => send('PUT', path('setReactionListChannel'), { list: 'colour_roles', channel_id: CHANNELS.roles }),
      'list must be color_roles or personality_roles',
    );
  });

  it('refuses a channel where the bot cannot react or remove reactions', async () => {
    const denied = await fetch(
      `${h.sandbox.url}/_sandbox/channels/${CHANNELS.roles}/permissions/${BOT_ROLE}`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 0,
          allow: '0',
          deny: (
            CHANNEL_PERMISSION_BITS['Add Reactions'] | CHANNEL_PERMISSION_BITS['Manage Messages']
          ).toString(),
        }),
      },
    );
    expect(denied.status).toBe(200);
    await expectRefused(
      () => send('PUT', path('setReactionListChannel'), { list: 'color_roles', channel_id: CHANNELS.roles }),
      "Missing permissions Add Reactions, Manage Messages in #roles. Allow them for the bot in that channel's permissions on Discord, then save again.",
    );
    await clearOverwrite();
  });

  it('stores each list’s channel and answers it', async () => {
    const response = await send('PUT', path('setReactionListChannel'), {
      list: 'personality_roles',
      channel_id: CHANNELS.general,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ list: 'personality_roles', channel_id: CHANNELS.general });
    const state = await getState();
    expect(state.channels).toEqual({ color_roles: null, personality_roles: CHANNELS.general });
    // The rows stay as they were.
    expect(state.personality_roles).toEqual([{ emoji: ROCKET, role_id: ROLES.stationManagers }]);
  });
});

describe('POST post-panel', () => {
  it('refuses when no list has both rows and a channel, queuing nothing', async () => {
    // Personality roles have a channel and a row; take its rows away, give color roles rows only.
    expect((await putLists([{ emoji: '🔴', role_id: ROLES.stationCrew }], [])).statusCode).toBe(200);
    await expectRefused(() => send('POST', path('postReactionPanels')), REACTION_PANEL_MESSAGES.noChannel);
    expect((await putLists([], [])).statusCode).toBe(200);
    await expectRefused(() => send('POST', path('postReactionPanels')), REACTION_PANEL_MESSAGES.noRows);
    expect(await jobOf('reaction-roles.post-panel')).toBeUndefined();
  });

  it('queues reaction-roles.post-panel for the guild when a list has rows and a channel', async () => {
    expect((await putLists([], [{ emoji: '🎮', role_id: ROLES.stationCrew }])).statusCode).toBe(200);
    const response = await send('POST', path('postReactionPanels'));
    expect(response.statusCode, response.body).toBe(202);
    const jobId = jobIdFor('reaction-roles.post-panel', guildId);
    expect(response.json()).toEqual({ job_id: jobId });
    const job = await jobOf('reaction-roles.post-panel');
    expect(job?.name).toBe('reaction-roles.post-panel');
    expect(job?.data).toMatchObject({ guild_id: guildId, requested_by: USERS.ada });
    // A second click joins the pending job.
    const again = await send('POST', path('postReactionPanels'));
    expect(again.json()).toEqual({ job_id: jobId });
    expect(await h.app.services.queue.forShard(0).getJobCounts('waiting')).toMatchObject({ waiting: 1 });
  });
});

describe('a save updates posted panels', () => {
  it('queues role-menus.repair only while a list has posted messages', async () => {
    expect((await putLists([{ emoji: '🔴', role_id: ROLES.stationCrew }], [])).statusCode).toBe(200);
    expect(await jobOf('role-menus.repair')).toBeUndefined();

    await markPosted('color_roles', ['400000000000000001', '400000000000000002']);
    expect((await getState()).panels).toEqual({
      color_roles: { channel_id: CHANNELS.roles, message_ids: ['400000000000000001', '400000000000000002'] },
      personality_roles: null,
    });
    const saved = await putLists([{ emoji: '🔵', role_id: ROLES.stationCrew }], []);
    expect(saved.statusCode, saved.body).toBe(200);
    const repair = await jobOf('role-menus.repair');
    expect(repair?.name).toBe('role-menus.repair');
    expect(repair?.data).toMatchObject({ guild_id: guildId, requested_by: USERS.ada });

    // Emptying the list still queues it: the worker deletes the panel of an empty list.
    await forgetJobs();
    expect((await putLists([], [])).statusCode).toBe(200);
    expect((await jobOf('role-menus.repair'))?.name).toBe('role-menus.repair');

    // A refused save queues nothing.
    await forgetJobs();
    await expectRefused(
      () => putLists([{ emoji: '🔵', role_id: ROLES.stationModerators }]),
      /^Color roles row 1: @Moderators is above my highest role/,
    );
    expect(await jobOf('role-menus.repair')).toBeUndefined();

    // Nothing posted any more: a save queues nothing.
    await markPosted('color_roles', []);
    expect((await putLists([{ emoji: '🔴', role_id: ROLES.stationCrew }])).statusCode).toBe(200);
    expect(await jobOf('role-menus.repair')).toBeUndefined();
    const [row] = await h.database.db.select().from(roleMenus).where(eq(roleMenus.listKey, 'color_roles'));
    expect(row?.messageIds).toEqual([]);
  });

  it('a save while the repair runs queues one follow-up, so the change is not lost', async () => {
    expect((await putLists([{ emoji: '🔴', role_id: ROLES.stationCrew }], [])).statusCode).toBe(200);
    await markPosted('color_roles', ['400000000000000003']);
    expect((await putLists([{ emoji: '🔵', role_id: ROLES.stationCrew }], [])).statusCode).toBe(200);
    const repairId = jobIdFor('role-menus.repair', guildId);
    // A worker takes the repair (by hand, so it stays active while the admin saves again).
    const connection = new Redis(h.redis.url, { maxRetriesPerRequest: null });
    const worker = new Worker(jobQueueName(0), null, { connection, prefix: `${h.redis.prefix}:bull` });
    try {
      const taken: Job | undefined = await worker.getNextJob('busy-worker-token');
      expect(taken?.id).toBe(repairId);
      expect(await h.app.services.queue.forShard(0).getJobState(repairId)).toBe('active');
      expect((await putLists([{ emoji: '🟢', role_id: ROLES.stationCrew }], [])).statusCode).toBe(200);
      const followUp = await h.app.services.queue.forShard(0).getJob(`${repairId}.followup`);
      expect(followUp?.name).toBe('role-menus.repair');
      expect(await h.app.services.queue.forShard(0).getJobState(`${repairId}.followup`)).toBe('waiting');
      await taken?.moveToCompleted('done', 'busy-worker-token', false);
    } finally {
      await worker.close();
      connection.disconnect();
    }
    await markPosted('color_roles', []);
  });
});
