import {
  type JobName,
  jobIdFor,
  MAX_ROLE_MENUS,
  ROLE_MENU_MESSAGES,
  type RoleMenu,
  type RoleMenuBody,
  type RoleMenuList,
  routePath,
  routes,
} from '@spacecadet/contract';
import { roleMenus } from '@spacecadet/db';
import { createOwnMenu, loadGuildMenus, saveMenuMessages } from '@spacecadet/db/queries/role-menus';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, storedState, USERS } from './harness.ts';

/**
 * The routes of role menus of the admin's own against real Postgres, Redis (BullMQ) and the
 * sandbox: every refusal names the field or option and stores nothing; an edit or a delete of a
 * posted menu queues its repair; Post queues the post job; another server's menu is not found.
 */
let h: Harness;
let ada: string;
const guildId = GUILDS.station;
const { roles: ROLES, emojis: EMOJIS } = SANDBOX_IDS;
const ROCKET = `<:rocket:${EMOJIS.stationRocket}>`;
/** Other Orbit's emoji: a custom emoji, but not Sandbox Station's. */
const COMET = `<:comet:${EMOJIS.orbitComet}>`;
const MOVE_MY_ROLE = 'in Server Settings → Roles, or pick another role';

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

const listPath = routePath(routes.listRoleMenus, { guildId });
const menuPath = (menuId: string) => routePath(routes.updateRoleMenu, { guildId, menuId });
const postPath = (menuId: string) => routePath(routes.postRoleMenu, { guildId, menuId });

function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return h.app.inject({ method, url, headers: { authorization: ada }, ...(payload ? { payload } : {}) });
}

/** A menu of buttons on two roles the bot can give. */
function menu(overrides: Partial<RoleMenuBody> = {}): RoleMenuBody {
  return {
    title: 'Crew roles',
    description: 'Pick **yours**',
    color: '#5865F2',
    channel_id: CHANNELS.roles,
    style: 'buttons',
    mode: 'normal',
    options: [
      { role_id: ROLES.stationCrew, label: 'Crew', emoji: '🚀' },
      { role_id: ROLES.stationManagers, label: 'Managers', emoji: ROCKET, description: 'Run the place' },
    ],
    ...overrides,
  };
}

const create = (body: object) => send('POST', listPath, body);
const listMenus = async () => (await send('GET', listPath)).json<RoleMenuList>().menus;

async function created(body: object = menu()): Promise<RoleMenu> {
  const response = await create(body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<RoleMenu>();
}

const rowOf = async (menuId: string) =>
  (await h.database.db.select().from(roleMenus).where(eq(roleMenus.id, menuId)))[0];

/** The BullMQ job of that name for the guild, if any. */
const jobOf = (name: JobName) => h.app.services.queue.forShard(0).getJob(jobIdFor(name, guildId));
const forgetJobs = async () => {
  for (const name of ['role-menus.repair', 'role-menus.post'] as const) {
    await h.app.services.queue.forShard(0).remove(jobIdFor(name, guildId));
    await h.app.services.queue.forShard(0).remove(`${jobIdFor(name, guildId)}.followup`);
  }
};
beforeEach(forgetJobs);

/** A refusal: 400 with that message, and nothing stored (rows, sessions, queue). */
async function expectRefused(request: () => ReturnType<typeof send>, message: string) {
  const before = await storedState(h);
  const jobsBefore = await h.app.services.queue.forShard(0).getJobCounts();
  const response = await request();
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ error: string; message: string; issues?: { path: string }[] }>();
  expect(body.error).toBe('invalid_input');
  expect(body.message).toBe(message);
  expect(await storedState(h)).toEqual(before);
  expect(await h.app.services.queue.forShard(0).getJobCounts()).toEqual(jobsBefore);
  return body;
}

describe('create and list', () => {
  it('answers 201 with the menu, stored as given (ids trimmed), and GET lists it', async () => {
    const body = menu({
      color: '#5865f2',
      mode: 'limit',
      max_roles: 1,
      // Only read from members, never given: a role above the bot will do.
      required_role_id: ROLES.stationModerators,
      options: [
        { role_id: ` ${ROLES.stationCrew} `, label: 'Crew', emoji: ' 🚀 ' },
        { role_id: ROLES.stationManagers, label: 'Managers' },
      ],
    });
    const answer = await created(body);
    expect(answer).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Crew roles',
      description: 'Pick **yours**',
      color: '#5865F2',
      channel_id: CHANNELS.roles,
      style: 'buttons',
      mode: 'limit',
      max_roles: 1,
      required_role_id: ROLES.stationModerators,
      options: [
        { role_id: ROLES.stationCrew, label: 'Crew', emoji: '🚀' },
        { role_id: ROLES.stationManagers, label: 'Managers' },
      ],
      posted: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      updated_by: USERS.ada,
    });
    expect((await rowOf(answer.id))?.color).toBe(0x5865f2);
    expect(await listMenus()).toEqual([answer]);
    // The Reaction Roles lists are menus too, but not the admin's own: GET leaves them out.
    const lists = await send('PUT', routePath(routes.putReactionRoles, { guildId }), {
      color_roles: [{ emoji: '🔴', role_id: ROLES.stationCrew }],
      personality_roles: [],
    });
    expect(lists.statusCode, lists.body).toBe(200);
    expect((await listMenus()).map((one) => one.id)).toEqual([answer.id]);
    // Nothing posted, nothing asked: no job.
    expect(await jobOf('role-menus.repair')).toBeUndefined();
    expect(await jobOf('role-menus.post')).toBeUndefined();
  });

  it('keeps max_roles only for a limit menu, and accepts a managed role as the required one', async () => {
    const answer = await created(
      menu({ style: 'select', color: null, max_roles: 2, required_role_id: ROLES.stationBot }),
    );
    expect(answer).toMatchObject({
      style: 'select',
      color: null,
      mode: 'normal',
      max_roles: null,
      required_role_id: ROLES.stationBot,
    });
    expect((await listMenus()).at(-1)).toEqual(answer);
  });
});

describe('PUT', () => {
  it('answers 200 with the menu replaced; nothing posted, no repair', async () => {
    const first = await created();
    const response = await send(
      'PUT',
      menuPath(first.id),
      menu({
        title: 'Reactions',
        style: 'reactions',
        mode: 'unique',
        color: '#00ff00',
        channel_id: CHANNELS.general,
        options: [{ role_id: ROLES.stationCrew, emoji: ROCKET }],
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<RoleMenu>();
    expect(answer).toMatchObject({
      id: first.id,
      title: 'Reactions',
      style: 'reactions',
      mode: 'unique',
      color: '#00FF00',
      channel_id: CHANNELS.general,
      options: [{ role_id: ROLES.stationCrew, emoji: ROCKET }],
      created_at: first.created_at,
      posted: null,
    });
    expect((await listMenus()).find((one) => one.id === first.id)).toEqual(answer);
    expect(await jobOf('role-menus.repair')).toBeUndefined();
  });

  it('of a posted menu queues role-menus.repair, which updates the message in place', async () => {
    const first = await created();
    await saveMenuMessages(h.database.db, first.id, {
      messageIds: ['400000000000000101'],
      channelId: CHANNELS.roles,
    });
    const response = await send('PUT', menuPath(first.id), menu({ title: 'Renamed' }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<RoleMenu>()).toMatchObject({
      title: 'Renamed',
      posted: { channel_id: CHANNELS.roles, message_ids: ['400000000000000101'] },
    });
    const repair = await jobOf('role-menus.repair');
    expect(repair?.name).toBe('role-menus.repair');
    expect(repair?.data).toMatchObject({ guild_id: guildId, requested_by: USERS.ada });
  });
});

describe('another server’s menu, and one that does not exist', () => {
  it('PUT, DELETE and Post answer 404 and leave it alone', async () => {
    const orbitMenu = await createOwnMenu(
      h.database.db,
      GUILDS.orbit,
      {
        title: 'Orbit menu',
        description: '',
        color: null,
        channelId: CHANNELS.orbitHangar,
        style: 'buttons',
        mode: 'normal',
        maxRoles: null,
        requiredRoleId: null,
        options: [{ role_id: ROLES.orbitBot, label: 'Orbit' }],
      },
      USERS.rex,
      MAX_ROLE_MENUS,
    );
    if (!orbitMenu) throw new Error('the Orbit menu was not created');
    for (const menuId of [orbitMenu.id, '00000000-0000-4000-8000-000000000000']) {
      for (const response of [
        await send('PUT', menuPath(menuId), menu()),
        await send('DELETE', menuPath(menuId)),
        await send('POST', postPath(menuId)),
      ]) {
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json()).toEqual({ error: 'not_found', message: ROLE_MENU_MESSAGES.notFound });
      }
    }
    expect(await rowOf(orbitMenu.id)).toEqual(orbitMenu);
    expect(await jobOf('role-menus.post')).toBeUndefined();
    expect(await jobOf('role-menus.repair')).toBeUndefined();
  });
});

describe('DELETE', () => {
  it('of a menu never posted removes it at once (204), queuing nothing', async () => {
    const gone = await created();
    const response = await send('DELETE', menuPath(gone.id));
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');
    expect((await listMenus()).map((one) => one.id)).not.toContain(gone.id);
    expect(await rowOf(gone.id)).toBeUndefined();
    expect(await jobOf('role-menus.repair')).toBeUndefined();
    expect((await send('DELETE', menuPath(gone.id))).statusCode).toBe(404);
  });

  it('of a posted menu marks it and queues role-menus.repair, which deletes its messages', async () => {
    const posted = await created();
    await saveMenuMessages(h.database.db, posted.id, {
      messageIds: ['400000000000000201', '400000000000000202'],
      channelId: CHANNELS.roles,
    });
    const response = await send('DELETE', menuPath(posted.id));
    expect(response.statusCode, response.body).toBe(204);
    expect((await listMenus()).map((one) => one.id)).not.toContain(posted.id);
    const row = await rowOf(posted.id);
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(row?.messageIds).toEqual(['400000000000000201', '400000000000000202']);
    const repair = await jobOf('role-menus.repair');
    expect(repair?.name).toBe('role-menus.repair');
    expect(repair?.data).toMatchObject({ guild_id: guildId, requested_by: USERS.ada });
    // Deleted: no longer edited, deleted or posted.
    expect((await send('DELETE', menuPath(posted.id))).statusCode).toBe(404);
    expect((await send('PUT', menuPath(posted.id), menu())).statusCode).toBe(404);
    expect((await send('POST', postPath(posted.id))).statusCode).toBe(404);
  });
});

describe('POST post', () => {
  it('asks for the post and queues role-menus.post (202 with its job id)', async () => {
    const toPost = await created();
    expect((await rowOf(toPost.id))?.postRequestedAt).toBeNull();
    const response = await send('POST', postPath(toPost.id));
    expect(response.statusCode, response.body).toBe(202);
    const jobId = jobIdFor('role-menus.post', guildId);
    expect(response.json()).toEqual({ job_id: jobId });
    const job = await jobOf('role-menus.post');
    expect(job?.name).toBe('role-menus.post');
    expect(job?.data).toMatchObject({ guild_id: guildId, requested_by: USERS.ada });
    expect((await rowOf(toPost.id))?.postRequestedAt).toBeInstanceOf(Date);
    // A second click joins the pending job.
    expect((await send('POST', postPath(toPost.id))).json()).toEqual({ job_id: jobId });
    expect(await h.app.services.queue.forShard(0).getJobCounts('waiting')).toMatchObject({ waiting: 1 });
  });
});

describe('refusals name the field or option and store nothing', () => {
  it('more options than the style holds (26 buttons)', async () => {
    const options = Array.from({ length: 26 }, (_, i) => ({
      role_id: `3000000000000010${String(i).padStart(2, '0')}`,
      label: `Role ${i + 1}`,
    }));
    const body = await expectRefused(
      () => create(menu({ options })),
      'options: a menu of buttons holds at most 25 options (this one has 26)',
    );
    expect(body.issues?.[0]).toMatchObject({ path: 'options' });
  });

  it('a role twice (ids compared trimmed)', async () => {
    const body = await expectRefused(
      () =>
        create(
          menu({
            options: [
              { role_id: ROLES.stationCrew, label: 'Crew' },
              { role_id: ` ${ROLES.stationCrew} `, label: 'Crew again' },
            ],
          }),
        ),
      'Option 2: option 1 already gives this role; each role can have one option',
    );
    expect(body.issues?.[0]).toMatchObject({ path: 'options.1.role_id' });
  });

  it('a role above the bot’s highest role, on create and on edit', async () => {
    const options = [
      { role_id: ROLES.stationCrew, label: 'Crew' },
      { role_id: ROLES.stationModerators, label: 'Moderators' },
    ];
    const message = `Option 2: @Moderators is above my highest role (Space Cadet); move my role above it ${MOVE_MY_ROLE}`;
    const body = await expectRefused(() => create(menu({ options })), message);
    expect(body.issues).toEqual([{ path: 'options.1.role_id', message }]);
    const existing = await created();
    await expectRefused(() => send('PUT', menuPath(existing.id), menu({ options })), message);
  });

  it('a managed role (the bot’s own)', async () => {
    await expectRefused(
      () => create(menu({ options: [{ role_id: ROLES.stationBot, label: 'Bot' }] })),
      `Option 1: @Space Cadet belongs to an integration (a bot's or a subscription's own role), and Discord lets no one give it; pick another role`,
    );
  });

  it('@everyone, as an option and as the required role', async () => {
    await expectRefused(
      () =>
        create(
          menu({
            options: [
              { role_id: ROLES.stationCrew, label: 'Crew' },
              { role_id: guildId, label: 'Everyone' },
            ],
          }),
        ),
      'options row 2: role_id is @everyone, which every member already has; pick another role',
    );
    await expectRefused(
      () => create(menu({ required_role_id: guildId })),
      'required_role_id is @everyone, which every member already has; pick another role',
    );
  });

  it('a role of another server, as an option and as the required role', async () => {
    await expectRefused(
      () => create(menu({ options: [{ role_id: ROLES.orbitBot, label: 'Orbit' }] })),
      'options row 1: role_id is not a role of this server',
    );
    await expectRefused(
      () => create(menu({ required_role_id: ROLES.orbitBot })),
      ROLE_MENU_MESSAGES.requiredRoleUnknown,
    );
  });

  it('limit without max_roles, and with more than the options', async () => {
    await expectRefused(
      () => create(menu({ mode: 'limit' })),
      'max_roles: a limit menu needs max_roles from 1 to 2 (its number of options)',
    );
    await expectRefused(
      () => create(menu({ mode: 'limit', max_roles: 3 })),
      'max_roles: a limit menu needs max_roles from 1 to 2 (its number of options)',
    );
  });

  it('a channel of another server', async () => {
    await expectRefused(
      () => create(menu({ channel_id: CHANNELS.orbitHangar })),
      'channel_id is not a text channel of this server',
    );
  });

  it('an empty menu', async () => {
    await expectRefused(() => create(menu({ options: [] })), 'options: a menu needs at least one option');
  });

  it.each([
    ['a description that is not text', { description: null }, 'description', 'description must be text'],
    ['a color as a number', { color: 0x5865f2 }, 'color', 'color must be a hex color like #5865F2'],
    [
      'a required role that is not an id',
      { required_role_id: 42 },
      'required_role_id',
      'required_role_id must be a Discord role id, or null for none',
    ],
    ['options that are not a list', { options: {} }, 'options', 'options must be a list of options'],
    [
      'an option that is not an object',
      { options: [{ role_id: ROLES.stationCrew, label: 'Crew' }, null] },
      'options.1',
      'Option 2 must be an object with a role_id',
    ],
    [
      'a label past 80 characters',
      { options: [{ role_id: ROLES.stationCrew, label: 'x'.repeat(81) }] },
      'options.0.label',
      'Option 1: label must be at most 80 characters',
    ],
    [
      'an emoji that is not text',
      { options: [{ role_id: ROLES.stationCrew, label: 'Crew', emoji: 7 }] },
      'options.0.emoji',
      'Option 1: emoji must be text',
    ],
    [
      'an option description past 100 characters',
      { options: [{ role_id: ROLES.stationCrew, label: 'Crew', description: 'x'.repeat(101) }] },
      'options.0.description',
      'Option 1: description must be at most 100 characters',
    ],
  ])('%s: the message names the field', async (_what, overrides, path, message) => {
    const body = await expectRefused(() => create({ ...menu(), ...overrides }), message);
    expect(body.issues?.[0]).toMatchObject({ path });
  });

  it('a menu whose text with its options’ lines is longer than Discord shows (4096), on create and on edit', async () => {
    const fruit = ['🍎', '🍌', '🍇', '🍉', '🍊', '🍋', '🍐', '🍑', '🍒', '🍓', '🥝', '🥥'];
    const roleIds: string[] = [];
    for (const [i] of fruit.entries()) {
      const made = await fetch(`${h.sandbox.apiBase}/v10/guilds/${guildId}/roles`, {
        method: 'POST',
        headers: { authorization: 'Bot sandbox-bot-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Fruit ${i + 1}` }),
      });
      roleIds.push(((await made.json()) as { id: string }).id);
    }
    const long = menu({
      style: 'reactions',
      description: 'd'.repeat(2000),
      options: fruit.map((emoji, i) => ({
        role_id: roleIds[i] ?? '',
        label: 'l'.repeat(80),
        emoji,
        description: 'x'.repeat(100),
      })),
    });
    // 2000, a blank line, and 12 lines of 190 characters (an emoji is 2) with 11 line breaks.
    const message = `description: with the options' lines the menu's text is 4293 characters, and Discord shows at most 4096; shorten the description, or the options' labels and descriptions`;
    const body = await expectRefused(() => create(long), message);
    expect(body.issues?.[0]).toMatchObject({ path: 'description' });
    const existing = await created();
    await expectRefused(() => send('PUT', menuPath(existing.id), long), message);
    // Within it, the same options are taken.
    await created({ ...long, description: 'd'.repeat(1700) });
  });

  it('a custom emoji of another server', async () => {
    const body = await expectRefused(
      () =>
        create(
          menu({
            options: [
              { role_id: ROLES.stationCrew, label: 'Crew', emoji: ROCKET },
              { role_id: ROLES.stationManagers, label: 'Managers', emoji: COMET },
            ],
          }),
        ),
      `Option 2: ${COMET} is not an emoji of this server; pick one of its own emojis or a standard one`,
    );
    expect(body.issues?.[0]).toMatchObject({ path: 'options.1.emoji' });
  });

  it(`the menu past ${MAX_ROLE_MENUS}`, async () => {
    const own = async () =>
      (await loadGuildMenus(h.database.db, guildId, { deleted: true })).filter((row) => row.listKey === null);
    // Created through the API until the server has the most it may.
    while ((await own()).length < MAX_ROLE_MENUS) await created();
    await expectRefused(() => create(menu()), ROLE_MENU_MESSAGES.tooMany);
    // One deleted (never posted, so gone at once): one can be made again.
    const last = (await listMenus()).at(-1);
    if (!last) throw new Error('no menu');
    expect((await send('DELETE', menuPath(last.id))).statusCode).toBe(204);
    await created();
    expect(await own()).toHaveLength(MAX_ROLE_MENUS);
  });
});
