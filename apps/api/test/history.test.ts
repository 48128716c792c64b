import {
  type ColorRolesState,
  type HistoryEntry,
  type HistoryList,
  jobIdFor,
  type PersonalityRolesState,
  type ReactionRolesState,
  type RoleMenu,
  type RoleMenuBody,
  type RoleMenuList,
  routePath,
  routes,
} from '@spacecadet/contract';
import { roleMenus } from '@spacecadet/db';
import { deletePalette, seedDefaultPaletteIfEmpty } from '@spacecadet/db/queries/color-roles';
import { beginHistoryEntry, completeHistoryEntry } from '@spacecadet/db/queries/history';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALREADY_UNDONE_MESSAGE } from '../src/history/undo.ts';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * The server's history against real Postgres, Redis and the sandbox: every recorded change is
 * listed (newest first, by page, by area), and the undo of each kind of settings change writes
 * the state before back through the route's own code, read back with the GET routes.
 */
let h: Harness;
let ada: string;
let nia: string;
const guildId: string = GUILDS.station;
const { roles: ROLES } = SANDBOX_IDS;

beforeAll(async () => {
  h = await startHarness();
  [ada, nia] = await Promise.all([signIn(h, USERS.ada), signIn(h, USERS.nia)]);
  await deletePalette(h.database.db, guildId);
  await seedDefaultPaletteIfEmpty(h.database.db, guildId);
});
afterAll(async () => {
  await h?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function send(method: Method, url: string, payload?: object, auth: string | null = ada) {
  return h.app.inject({
    method,
    url,
    ...(auth === null ? {} : { headers: { authorization: auth } }),
    ...(payload ? { payload } : {}),
  });
}
const path = (name: keyof typeof routes, extra: Record<string, string | number> = {}) =>
  routePath(routes[name], { guildId, ...extra } as never);

async function ok<T>(method: Method, url: string, payload?: object): Promise<T> {
  const response = await send(method, url, payload);
  expect(response.statusCode, response.body).toBeLessThan(300);
  return (response.body === '' ? undefined : response.json()) as T;
}

async function list(query: Record<string, string | number> = {}): Promise<HistoryList> {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const qs = search.size > 0 ? `?${search}` : '';
  return ok<HistoryList>('GET', `${path('listHistory')}${qs}`);
}
const newest = async () => {
  const entry = (await list({ limit: 1 })).entries[0];
  if (!entry) throw new Error('no history entry');
  return entry;
};
const undoPath = (entryId: number, guild = guildId) =>
  routePath(routes.undoHistory, { guildId: guild, entryId } as never);
const undo = (entryId: number, body: object = {}) => send('POST', undoPath(entryId), body);

async function undone(entryId: number, body: object = {}): Promise<HistoryEntry> {
  const response = await undo(entryId, body);
  expect([200, 202], response.body).toContain(response.statusCode);
  const { entry } = response.json<{ entry: HistoryEntry }>();
  expect(entry.undo_of).toBe(entryId);
  return entry;
}

async function expectConflict(entryId: number, error: string, message: string | RegExp) {
  const response = await undo(entryId);
  expect(response.statusCode, response.body).toBe(409);
  const body = response.json<{ error: string; message: string }>();
  expect(body.error).toBe(error);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

/** The entry of that id as the list answers it now. */
async function entryOf(id: number): Promise<HistoryEntry | undefined> {
  return (await list({ limit: 100 })).entries.find((entry) => entry.id === id);
}

const getConfig = async () => (await ok<{ data: unknown }>('GET', path('getConfig'))).data;

describe('listing', () => {
  it('lists recorded changes newest first, by page and by area; a failed request is not listed', async () => {
    await ok('PUT', path('putConfig'), { greeting: 'one' });
    await ok('PUT', path('putConfig'), { greeting: 'two' });
    await ok('PUT', path('setColorRolesChannel'), { channel_id: CHANNELS.roles });
    // A 400 (a channel of another server): its entry is dropped.
    const refused = await send('PUT', path('setColorRolesChannel'), { channel_id: CHANNELS.orbitHangar });
    expect(refused.statusCode, refused.body).toBe(400);

    const all = await list();
    expect(all.entries.map((entry) => entry.action)).toEqual([
      'color_roles.channel',
      'config.update',
      'config.update',
    ]);
    const ids = all.entries.map((entry) => entry.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(all.next_before).toBeNull();
    expect(all.entries[0]).toMatchObject({
      actor_id: USERS.ada,
      area: 'color_roles',
      summary: 'Set the color roles channel to #roles',
      undoable: true,
      undone_by: null,
      undo_of: null,
    });
    expect(all.entries[1]?.changes).toEqual([{ field: 'greeting', before: 'one', after: 'two' }]);

    const first = await list({ limit: 2 });
    expect(first.entries.map((entry) => entry.id)).toEqual(ids.slice(0, 2));
    expect(first.next_before).toBe(ids[1]);
    const second = await list({ limit: 2, before: first.next_before ?? 0 });
    expect(second.entries.map((entry) => entry.id)).toEqual(ids.slice(2));
    expect(second.next_before).toBeNull();

    const config = await list({ area: 'config' });
    expect(config.entries.map((entry) => entry.id)).toEqual(ids.slice(1));
  });

  it('answers 401 without a session and 403 to a user who does not manage the server', async () => {
    const entry = await newest();
    expect((await send('GET', path('listHistory'), undefined, null)).statusCode).toBe(401);
    expect((await send('POST', undoPath(entry.id), {}, null)).statusCode).toBe(401);
    expect((await send('GET', path('listHistory'), undefined, nia)).statusCode).toBe(403);
    expect((await send('POST', undoPath(entry.id), {}, nia)).statusCode).toBe(403);
    expect((await entryOf(entry.id))?.undoable).toBe(true);
  });

  it('answers bad input with a 400 naming it, never a 500', async () => {
    const listing = (qs: string) => send('GET', `${path('listHistory')}?${qs}`);
    for (const qs of [
      'before=abc',
      'before=-1',
      'before=2147483648',
      'area=music',
      'limit=0',
      'limit=1000',
    ]) {
      const response = await listing(qs);
      expect(response.statusCode, `${qs}: ${response.body}`).toBe(400);
      expect(response.json().message).toMatch(/before|area|limit/);
    }
    for (const entryId of ['2147483648', '99999999999999999999', 'abc', '0']) {
      const response = await send('POST', `/api/guilds/${guildId}/history/${entryId}/undo`, {});
      expect(response.statusCode, `${entryId}: ${response.body}`).toBe(400);
    }
    const badBody = await send('POST', undoPath((await newest()).id), { confirm: 'yes' });
    expect(badBody.statusCode, badBody.body).toBe(400);
    // The largest id there can be: simply not found.
    expect((await send('POST', `/api/guilds/${guildId}/history/2147483647/undo`, {})).statusCode).toBe(404);
  });

  it("answers 404 for another server's entry", async () => {
    const entry = await newest();
    // Quiet Quarters: Ada manages it (an ADMINISTRATOR), but the entry is Sandbox Station's.
    const quiet = await send('POST', undoPath(entry.id, GUILDS.quiet), {});
    expect(quiet.statusCode, quiet.body).toBe(404);
    expect((await entryOf(entry.id))?.undoable).toBe(true);
  });
});

describe('undo of the config', () => {
  it('brings the config back, records the undo, refuses a second undo, and undoes the undo', async () => {
    await ok('PUT', path('putConfig'), { greeting: 'before' });
    await ok('PUT', path('putConfig'), { greeting: 'after', extra: [1] });
    const change = await newest();
    const undo1 = await undone(change.id);
    expect(undo1).toMatchObject({
      action: 'history.undo',
      area: 'config',
      summary: expect.stringContaining('Undid:'),
    });
    expect(await getConfig()).toEqual({ greeting: 'before' });
    expect(await entryOf(change.id)).toMatchObject({ undoable: false, undone_by: undo1.id });
    await expectConflict(change.id, 'conflict', ALREADY_UNDONE_MESSAGE);

    // The undo is itself undoable: the change comes back. Without a body: `{}`.
    const bodiless = await h.app.inject({
      method: 'POST',
      url: undoPath(undo1.id),
      headers: { authorization: ada },
    });
    expect(bodiless.statusCode, bodiless.body).toBe(200);
    expect(bodiless.json<{ entry: HistoryEntry }>().entry.undo_of).toBe(undo1.id);
    expect(await getConfig()).toEqual({ greeting: 'after', extra: [1] });
  });

  it('keeps keys named like Object.prototype members as data: listed with their diff, undone', async () => {
    await ok('PUT', path('putConfig'), { greeting: 'plain' });
    // Written as text: an object literal's `__proto__` would set its prototype, not a key.
    const raw = '{"constructor": 1, "__proto__": {"x": 1}, "toString": "a"}';
    const put = await h.app.inject({
      method: 'PUT',
      url: path('putConfig'),
      headers: { authorization: ada, 'content-type': 'application/json' },
      payload: raw,
    });
    expect(put.statusCode, put.body).toBe(200);
    const got = await send('GET', path('getConfig'));
    expect(got.body).toContain('"__proto__":{"x":1}');
    expect(got.json().data).toEqual(JSON.parse(raw));

    const listed = await send('GET', path('listHistory'));
    expect(listed.statusCode, listed.body).toBe(200);
    const [change] = listed.json<HistoryList>().entries;
    // Postgres orders a jsonb object's keys its own way.
    expect(change?.changes).toEqual(
      expect.arrayContaining([
        { field: 'constructor', before: null, after: '1' },
        { field: '__proto__', before: null, after: '{"x":1}' },
        { field: 'toString', before: null, after: 'a' },
        { field: 'greeting', before: 'plain', after: null },
      ]),
    );
    expect(change?.changes).toHaveLength(4);
    if (!change) throw new Error('no entry');
    await undone(change.id);
    expect(await getConfig()).toEqual({ greeting: 'plain' });
    // And the undo of that undo writes those keys back as they were.
    const redo = await undone((await newest()).id);
    expect(redo.changes.map((c) => c.field).sort()).toEqual([
      '__proto__',
      'constructor',
      'greeting',
      'toString',
    ]);
    const again = await send('GET', path('getConfig'));
    expect(again.json().data).toEqual(JSON.parse(raw));
  });

  it('lists and undoes configs of any keys (property): the diff names exactly the keys that changed', async () => {
    // Keys every object inherits a member of, and any other text.
    const anyKey = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
    );
    const anyLeaf = fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.string({ unit: 'grapheme-ascii', maxLength: 6 }),
    );
    // Entries, written out as JSON text by hand: an object literal's `__proto__` is no key.
    const anyObjectText = (value: fc.Arbitrary<string>) =>
      fc
        .uniqueArray(fc.tuple(anyKey, value), { selector: ([key]) => key, maxLength: 5 })
        .map((entries) => `{${entries.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`);
    const anyConfigText = anyObjectText(
      fc.oneof(
        anyLeaf.map((leaf) => JSON.stringify(leaf)),
        anyObjectText(anyLeaf.map((leaf) => JSON.stringify(leaf))),
      ),
    );
    const putRaw = (text: string) =>
      h.app.inject({
        method: 'PUT',
        url: path('putConfig'),
        headers: { authorization: ada, 'content-type': 'application/json' },
        payload: text,
      });
    const own = (record: Record<string, unknown>, key: string) =>
      Object.hasOwn(record, key) ? JSON.stringify(record[key]) : undefined;

    await fc.assert(
      fc.asyncProperty(anyConfigText, anyConfigText, async (beforeText, afterText) => {
        expect((await putRaw(beforeText)).statusCode).toBe(200);
        const newestBefore = (await newest()).id;
        const put = await putRaw(afterText);
        expect(put.statusCode, put.body).toBe(200);
        const before = JSON.parse(beforeText) as Record<string, unknown>;
        const after = JSON.parse(afterText) as Record<string, unknown>;
        expect(await getConfig()).toEqual(after);

        const listed = await send('GET', path('listHistory'));
        expect(listed.statusCode, listed.body).toBe(200);
        const [change] = listed.json<HistoryList>().entries;
        if (!change) throw new Error('no entry');
        const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
          (key) => own(before, key) !== own(after, key),
        );
        // Saving the config as it was records nothing.
        if (changed.length === 0) {
          expect(change.id).toBe(newestBefore);
          return;
        }
        expect(change.changes.map((c) => c.field).sort()).toEqual(changed.sort());

        const undo = await send('POST', undoPath(change.id), {});
        expect(undo.statusCode, undo.body).toBe(200);
        expect(await getConfig()).toEqual(before);
      }),
      { numRuns: 30 },
    );
  });

  it('undoes the first config of a server to none', async () => {
    const quiet = routePath(routes.putConfig, { guildId: GUILDS.quiet });
    const put = await send('PUT', quiet, { first: true });
    expect(put.statusCode, put.body).toBe(200);
    const [entry] = (await ok<HistoryList>('GET', routePath(routes.listHistory, { guildId: GUILDS.quiet })))
      .entries;
    if (!entry) throw new Error('no entry');
    const response = await send('POST', undoPath(entry.id, GUILDS.quiet), {});
    expect(response.statusCode, response.body).toBe(200);
    const got = await send('GET', routePath(routes.getConfig, { guildId: GUILDS.quiet }));
    expect(got.json()).toEqual({ data: {}, updated_by: null, updated_at: null });
  });

  it('asks to confirm when the subject changed since, naming the newer change; confirm undoes', async () => {
    await ok('PUT', path('putConfig'), { step: 1 });
    await ok('PUT', path('putConfig'), { step: 2 });
    const older = await newest();
    await ok('PUT', path('putConfig'), { step: 3 });
    const newer = await newest();
    await expectConflict(
      older.id,
      'changed_since',
      new RegExp(`"${newer.summary.replace(/[()]/g, '.')}" by`),
    );
    expect(await getConfig()).toEqual({ step: 3 });
    await undone(older.id, { confirm: true });
    expect(await getConfig()).toEqual({ step: 1 });
  });

  it('refuses the undo of an entry that is not undoable (a post) with 409', async () => {
    await ok('PUT', path('setColorRolesChannel'), { channel_id: CHANNELS.roles });
    const post = await send('POST', path('postColorPanel'));
    expect(post.statusCode, post.body).toBe(202);
    const entry = await newest();
    expect(entry).toMatchObject({
      action: 'color_roles.post',
      undoable: false,
      summary: 'Posted the color panel in #roles',
    });
    await expectConflict(entry.id, 'conflict', /cannot be undone/);
    await h.app.services.queue.forShard(0).remove(jobIdFor('color-roles.post-panel', guildId));
  });
});

const reactionState = async () => ok<ReactionRolesState>('GET', path('getReactionRoles'));

describe('undo of reaction roles', () => {
  it('brings the lists back', async () => {
    const one = { color_roles: [{ emoji: '🔴', role_id: ROLES.stationCrew }], personality_roles: [] };
    const two = {
      color_roles: [{ emoji: '🔵', role_id: ROLES.stationCrew, label: 'Blue' }],
      personality_roles: [{ emoji: '🎮', role_id: ROLES.stationManagers }],
    };
    await ok('PUT', path('putReactionRoles'), one);
    await ok('PUT', path('putReactionRoles'), two);
    const entry = await newest();
    expect(entry.summary).toBe(
      'Edited the reaction-role lists: color roles (1 -> 1 rows), personality roles (0 -> 1 rows)',
    );
    await undone(entry.id);
    const state = await reactionState();
    expect({ color_roles: state.color_roles, personality_roles: state.personality_roles }).toEqual(one);
  });

  it("brings a list's channel back, and refuses with a 400 a channel no longer the server's", async () => {
    await ok('PUT', path('setReactionListChannel'), { list: 'color_roles', channel_id: CHANNELS.roles });
    await ok('PUT', path('setReactionListChannel'), { list: 'color_roles', channel_id: CHANNELS.general });
    const entry = await newest();
    expect(entry.summary).toBe('Set the color roles reaction panel channel to #general');
    await undone(entry.id);
    expect((await reactionState()).channels.color_roles).toBe(CHANNELS.roles);

    // An entry whose channel before is not (any more) one of the server's.
    const db = h.database.db;
    const id = await beginHistoryEntry(db, {
      guildId,
      actorId: USERS.ada,
      actorName: 'ada',
      actorAvatar: null,
      area: 'reaction_roles',
      action: 'reaction_roles.channel',
      subject: 'reaction_roles:channel',
    });
    await completeHistoryEntry(db, id, {
      summary: 'Set the color roles reaction panel channel',
      undoKind: 'state',
      before: { color_roles: CHANNELS.orbitHangar, personality_roles: null },
      after: { color_roles: CHANNELS.roles, personality_roles: null },
    });
    const refused = await undo(id);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/channel_id/);
    expect((await reactionState()).channels.color_roles).toBe(CHANNELS.roles);
    expect((await entryOf(id))?.undoable).toBe(true);
  });
});

const menusPath = path('listRoleMenus');
const menuPath = (menuId: string) => path('updateRoleMenu', { menuId });
const menus = async () => (await ok<RoleMenuList>('GET', menusPath)).menus;
function menuBody(overrides: Partial<RoleMenuBody> = {}): RoleMenuBody {
  return {
    title: 'Pronouns',
    description: 'Pick yours',
    color: '#5865F2',
    channel_id: CHANNELS.roles,
    style: 'buttons',
    mode: 'normal',
    options: [{ role_id: ROLES.stationCrew, label: 'Crew', emoji: '🚀' }],
    ...overrides,
  };
}

describe('undo of role menus', () => {
  it('undoes a create (the menu goes), an edit (it comes back) and a delete (it returns under its id)', async () => {
    const created = await ok<RoleMenu>('POST', menusPath, menuBody());
    const createEntry = await newest();
    expect(createEntry.summary).toBe('Created the role menu "Pronouns"');

    await ok('PUT', menuPath(created.id), menuBody({ title: 'Pick your pronouns' }));
    const edit = await newest();
    expect(edit.summary).toBe('Renamed the role menu "Pronouns" to "Pick your pronouns"');
    await undone(edit.id);
    expect((await menus()).find((menu) => menu.id === created.id)?.title).toBe('Pronouns');

    expect((await send('DELETE', menuPath(created.id))).statusCode).toBe(204);
    const deleted = await newest();
    expect(deleted.summary).toBe('Deleted the role menu "Pronouns"');
    expect(await menus()).toEqual([]);
    await undone(deleted.id);
    const back = (await menus()).find((menu) => menu.id === created.id);
    expect(back).toMatchObject({ title: 'Pronouns', description: 'Pick yours', options: menuBody().options });

    // The create is undone by deleting the menu; it changed since (edit, delete), so confirm.
    await expectConflict(createEntry.id, 'changed_since', /This changed since/);
    await undone(createEntry.id, { confirm: true });
    expect(await menus()).toEqual([]);
  });

  it('brings back a deleted menu that was posted: the row kept until its messages go is undeleted and posted again', async () => {
    const created = await ok<RoleMenu>('POST', menusPath, menuBody({ title: 'Posted' }));
    await h.database.db
      .update(roleMenus)
      .set({ messageIds: ['900000000000000001'], messageChannelId: CHANNELS.roles })
      .where(eq(roleMenus.id, created.id));
    expect((await send('DELETE', menuPath(created.id))).statusCode).toBe(204);
    const deleted = await newest();
    const [marked] = await h.database.db.select().from(roleMenus).where(eq(roleMenus.id, created.id));
    expect(marked?.deletedAt).not.toBeNull();
    await h.app.services.queue.forShard(0).remove(jobIdFor('role-menus.post', guildId));
    await undone(deleted.id);
    const [row] = await h.database.db.select().from(roleMenus).where(eq(roleMenus.id, created.id));
    expect(row?.deletedAt).toBeNull();
    expect(row?.postRequestedAt).not.toBeNull();
    expect(await h.app.services.queue.forShard(0).getJobState(jobIdFor('role-menus.post', guildId))).not.toBe(
      'unknown',
    );
  });

  it("records a post under the menu's subject, not undoable", async () => {
    const created = await ok<RoleMenu>('POST', menusPath, menuBody({ title: 'To post' }));
    const post = await send('POST', path('postRoleMenu', { menuId: created.id }));
    expect(post.statusCode, post.body).toBe(202);
    const entry = await newest();
    expect(entry).toMatchObject({ summary: 'Posted the role menu "To post"', undoable: false });
    await expectConflict(entry.id, 'conflict', /cannot be undone/);
  });
});

const colorState = async () => ok<ColorRolesState>('GET', path('getColorRoles'));
const paletteBody = (state: ColorRolesState) => ({
  colors: state.groups
    .flatMap((group) => group.colors)
    .sort((a, b) => a.position - b.position)
    .map((color) => ({
      color_id: color.color_id,
      name: color.color_name,
      hex: color.hex_code,
      shades: color.shades.map((shade) => ({
        shade_id: shade.shade_id,
        name: shade.shade_name,
        hex: shade.hex_code,
      })),
    })),
});
const colorNames = async () =>
  (await colorState()).groups
    .flatMap((group) => group.colors)
    .sort((a, b) => a.position - b.position)
    .map((color) => `${color.color_name} ${color.hex_code}`);

describe('undo of color settings', () => {
  it('brings the palette back, a removed color included', async () => {
    const before = await colorNames();
    const body = paletteBody(await colorState());
    const [first, ...rest] = body.colors;
    if (!first) throw new Error('empty palette');
    await ok('PUT', path('putColorPalette'), {
      colors: [{ ...first, name: 'Renamed', hex: '#123456' }, ...rest.slice(1)],
    });
    const entry = await newest();
    expect(entry.summary).toMatch(/^Edited the color palette: removed .+; changed .+ -> Renamed$/);
    await undone(entry.id);
    expect(await colorNames()).toEqual(before);
  });

  it('brings the channel back', async () => {
    await ok('PUT', path('setColorRolesChannel'), { channel_id: CHANNELS.roles });
    await ok('PUT', path('setColorRolesChannel'), { channel_id: CHANNELS.general });
    await undone((await newest()).id);
    expect((await colorState()).channel_id).toBe(CHANNELS.roles);
  });
});

const personalityState = async () => ok<PersonalityRolesState>('GET', path('getPersonalityRoles'));

describe('undo of personality settings', () => {
  it('brings the channel and the Onboarding switch back', async () => {
    await ok('POST', path('initPersonalityRoles'), { channel_id: CHANNELS.roles });
    expect((await newest()).summary).toBe('Set up personality roles in #roles');
    await ok('PUT', path('setPersonalityChannel'), { channel_id: CHANNELS.general });
    const channel = await newest();
    expect(channel.summary).toBe('Set the personality roles channel to #general');
    await undone(channel.id);
    expect((await personalityState()).assign_channel_id).toBe(CHANNELS.roles);

    await ok('PUT', path('setPersonalityOnboarding'), { enabled: true });
    const onboarding = await newest();
    expect((await personalityState()).onboarding).toBe(true);
    const response = await undo(onboarding.id);
    // The job makes Discord Onboarding match: 202 with its id.
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ job_id: expect.any(String), entry: { undo_of: onboarding.id } });
    expect((await personalityState()).onboarding).toBe(false);
  });
});
