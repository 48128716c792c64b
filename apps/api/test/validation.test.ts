import { guildConfigs } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
let mo: string;
const station = `/api/guilds/${GUILDS.station}`;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  mo = await signIn(h, USERS.mo);
});
afterAll(async () => {
  await h?.close();
});

function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, authorization = ada) {
  return h.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
}

async function expectInvalid(response: Awaited<ReturnType<typeof send>>, message: string) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toMatchObject({ error: 'invalid_input', message });
}

describe('raw config', () => {
  it('starts empty, round-trips and records who wrote it', async () => {
    const empty = await send('GET', `${station}/config`);
    expect(empty.json()).toEqual({ data: {}, updated_by: null, updated_at: null });

    const data = { color_roles_mode: 'shades', welcome: { message: 'hi', enabled: true }, list: [1, 'two'] };
    const put = await send('PUT', `${station}/config`, data);
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ updated_by: USERS.ada, updated_at: expect.any(String) });

    const got = await send('GET', `${station}/config`, undefined, mo);
    expect(got.json()).toEqual({ data, updated_by: USERS.ada, updated_at: put.json().updated_at });
    // The admin's key order survives (jsonb would sort the keys by length: list, welcome, ...).
    expect(Object.keys(got.json().data)).toEqual(['color_roles_mode', 'welcome', 'list']);
    expect(Object.keys(got.json().data.welcome)).toEqual(['message', 'enabled']);

    const byMo = await send('PUT', `${station}/config`, { color_roles_mode: 'basic' }, mo);
    expect(byMo.json().updated_by).toBe(USERS.mo);
    expect(Date.parse(byMo.json().updated_at)).toBeGreaterThanOrEqual(Date.parse(put.json().updated_at));
  });

  it('refuses what is not a JSON object, a bad mode, bad JSON, too large and non-JSON bodies', async () => {
    const before = await send('GET', `${station}/config`);
    expect((await send('PUT', `${station}/config`, [1, 2])).statusCode).toBe(400);
    await expectInvalid(
      await send('PUT', `${station}/config`, { color_roles_mode: 'neon' }),
      'color_roles_mode must be basic or shades',
    );
    const badJson = await h.app.inject({
      method: 'PUT',
      url: `${station}/config`,
      headers: { authorization: ada, 'content-type': 'application/json' },
      payload: '{"color_roles_mode": ',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ error: 'invalid_input', message: 'Invalid JSON' });

    const big = await send('PUT', `${station}/config`, { blob: 'x'.repeat(64 * 1024) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'payload_too_large', message: 'Config is larger than 64 KiB' });
    const huge = await send('PUT', `${station}/config`, { blob: 'x'.repeat(300 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('payload_too_large');

    const text = await h.app.inject({
      method: 'PUT',
      url: `${station}/config`,
      headers: { authorization: ada, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toBe('unsupported_media_type');

    expect((await send('GET', `${station}/config`)).json()).toEqual(before.json());
  });

  it('refuses text Postgres cannot store (NUL) with a 400, not a 500', async () => {
    const before = await send('GET', `${station}/config`);
    const nul = 'Text cannot contain NUL characters';
    await expectInvalid(await send('PUT', `${station}/config`, { name: 'a\u0000b' }), nul);
    await expectInvalid(await send('POST', `${station}/leveling/roles`, { role_name: 'a\u0000b' }), nul);
    await expectInvalid(
      await send('PUT', `${station}/personality-roles/questions/a%00b/toggle`, { enabled: true }),
      nul,
    );
    expect((await send('GET', `${station}/config`)).json()).toEqual(before.json());
  });

  it('accepts a config of exactly 64 KiB', async () => {
    const overhead = JSON.stringify({ blob: '' }).length;
    const response = await send('PUT', `${station}/config`, { blob: 'x'.repeat(64 * 1024 - overhead) });
    expect(response.statusCode).toBe(200);
    const [row] = await h.database.db
      .select()
      .from(guildConfigs)
      .where(eq(guildConfigs.guildId, GUILDS.station));
    expect(JSON.stringify(row?.data).length).toBe(64 * 1024);
  });
});

describe('reaction roles', () => {
  it('starts empty and round-trips with updated_by', async () => {
    const empty = await send('GET', `${station}/reaction-roles`);
    const nowhere = {
      channels: { color_roles: null, personality_roles: null },
      panels: { color_roles: null, personality_roles: null },
    };
    expect(empty.json()).toEqual({
      color_roles: [],
      personality_roles: [],
      ...nowhere,
      updated_at: null,
      updated_by: null,
    });
    const body = {
      color_roles: [{ emoji: '🔴', role_id: '300000000000000021', label: 'Red', description: 'Warm' }],
      personality_roles: [{ emoji: '🎮', role_id: '300000000000000022' }],
    };
    const put = await send('PUT', `${station}/reaction-roles`, body, mo);
    expect(put.json()).toEqual({ updated_by: USERS.mo, updated_at: expect.any(String) });
    const got = await send('GET', `${station}/reaction-roles`);
    expect(got.json()).toEqual({
      ...body,
      ...nowhere,
      updated_by: USERS.mo,
      updated_at: put.json().updated_at,
    });
  });

  it('names the first bad row, 1-based, and stores nothing', async () => {
    const before = (await send('GET', `${station}/reaction-roles`)).json();
    const ok = { emoji: '🔵', role_id: '300000000000000021' };
    await expectInvalid(
      await send('PUT', `${station}/reaction-roles`, {
        color_roles: [ok, { emoji: '🟢', role_id: '' }],
        personality_roles: [],
      }),
      'Row 2: emoji and role_id required',
    );
    await expectInvalid(
      await send('PUT', `${station}/reaction-roles`, {
        color_roles: [ok],
        personality_roles: [{ emoji: ' ', role_id: '300000000000000021' }],
      }),
      'Row 1: emoji and role_id required',
    );
    await expectInvalid(
      await send('PUT', `${station}/reaction-roles`, {
        color_roles: [{ role_id: '1' }],
        personality_roles: [],
      }),
      'Row 1: emoji and role_id required',
    );
    await expectInvalid(
      await send('PUT', `${station}/reaction-roles`, {
        color_roles: [{ emoji: '🔴', role_id: 'red' }],
        personality_roles: [],
      }),
      'Row 1: role_id must be a Discord role id',
    );
    expect((await send('GET', `${station}/reaction-roles`)).json()).toEqual(before);
  });
});

describe('color roles', () => {
  it('requires a 5-20 digit channel id', async () => {
    for (const channel_id of ['', 'abc', '1234', '1'.repeat(21), 12345]) {
      await expectInvalid(
        await send('PUT', `${station}/color-roles/channel`, { channel_id }),
        'Channel ID required',
      );
    }
    await expectInvalid(await send('PUT', `${station}/color-roles/channel`, {}), 'Channel ID required');
  });

  it('needs a channel before posting the panel, then stores it', async () => {
    await expectInvalid(await send('POST', `${station}/color-roles/post-panel`), 'Select a channel first');
    const set = await send('PUT', `${station}/color-roles/channel`, { channel_id: CHANNELS.roles });
    expect(set.json()).toEqual({ channel_id: CHANNELS.roles });
    const state = await send('GET', `${station}/color-roles`);
    expect(state.json()).toMatchObject({ groups: [], channel_id: CHANNELS.roles, message_id: null });
    expect((await send('POST', `${station}/color-roles/post-panel`)).statusCode).toBe(202);
  });
});

describe('leveling rules', () => {
  it.each([
    // Out-of-range XP, cooldown and negative multipliers are stored clamped (leveling.test.ts).
    [{ xp_multiplier: 100.5 }, 'XP multiplier must be at most 100'],
    [{ announcement_channel: 'general' }, 'Channel ID required'],
  ])('PUT leveling %j', async (body, message) => {
    await expectInvalid(await send('PUT', `${station}/leveling`, body), message);
  });

  it('validates reward roles and boosts', async () => {
    await expectInvalid(
      await send('POST', `${station}/leveling/roles`, { role_name: 'x'.repeat(101) }),
      'Role name is at most 100 characters',
    );
    await expectInvalid(
      await send('POST', `${station}/leveling/roles`, { level_required: -1 }),
      'Level required must be a whole number from 0 to 1000',
    );
    await expectInvalid(
      await send('POST', `${station}/leveling/boosts`, { expires_at: 'tomorrow' }),
      'expires_at must be an ISO timestamp, or null for a boost that never expires',
    );
    await expectInvalid(
      await send('POST', `${station}/leveling/role-boosts`, { role_id: '' }),
      'A role boost needs a role id',
    );
  });

  it('applies defaults, turns leveling on and caps reward roles at 15', async () => {
    const role = await send('POST', `${station}/leveling/roles`, {});
    expect(role.statusCode).toBe(201);
    expect(role.json()).toMatchObject({ role_name: 'Level Reward', level_required: 1, role_id: null });
    const boost = await send('POST', `${station}/leveling/role-boosts`, { role_id: '300000000000000021' });
    expect(boost.json()).toMatchObject({
      multiplier: 2,
      user_id: '-role:300000000000000021',
      expires_at: null,
    });
    const state = await send('GET', `${station}/leveling`);
    expect(state.json().leveling.enabled).toBe(true);
    for (let i = 2; i <= 15; i++) {
      expect((await send('POST', `${station}/leveling/roles`, { level_required: i })).statusCode).toBe(201);
    }
    const sixteenth = await send('POST', `${station}/leveling/roles`, { level_required: 16 });
    expect(sixteenth.statusCode).toBe(409);
    expect(sixteenth.json().message).toBe(
      'A server can have at most 15 level roles. Delete one to add another.',
    );
  });
});

describe('personality roles', () => {
  it('needs a channel for generate and post, then initializes the catalog', async () => {
    await expectInvalid(
      await send('POST', `${station}/personality-roles/generate-roles`),
      'Select a channel first',
    );
    await expectInvalid(
      await send('POST', `${station}/personality-roles/post-panel`),
      'Select a channel first',
    );
    expect((await send('GET', `${station}/personality-roles`)).json()).toEqual({
      configured: false,
      assign_channel_id: null,
      questions: [],
      last_refresh: null,
      onboarding: false,
    });
    const init = await send('POST', `${station}/personality-roles/init`, { channel_id: CHANNELS.roles });
    expect(init.json()).toMatchObject({ configured: true, assign_channel_id: CHANNELS.roles });
    expect(init.json().questions).toHaveLength(10);
    const toggle = await send('PUT', `${station}/personality-roles/questions/zodiac/toggle`, {
      enabled: false,
    });
    expect(toggle.json()).toMatchObject({ question_type: 'zodiac', is_enabled: false });
    expect(toggle.json().role_count).toBeGreaterThan(0);
    const unknown = await send('PUT', `${station}/personality-roles/questions/astrology/toggle`, {
      enabled: true,
    });
    expect(unknown.statusCode).toBe(404);
    expect((await send('POST', `${station}/personality-roles/generate-roles`)).statusCode).toBe(202);
  });
});

describe('errors in general', () => {
  it('answers unknown routes and bad ids in the error shape', async () => {
    const missing = await h.app.inject({ url: '/api/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('not_found');
    const badId = await send('GET', '/api/guilds/not-a-guild/config');
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ error: 'invalid_input', issues: [{ path: 'guildId' }] });
  });
});
