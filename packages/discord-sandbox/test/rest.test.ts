import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { bot, control } from './helpers.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  await sandbox.close();
});

const { guilds, channels, users, roles } = SANDBOX_IDS;
const button = (id: string) => ({ type: 2, style: 1, label: id.slice(0, 10), custom_id: id });
const row = (...components: unknown[]) => ({ type: 1, components });

describe('auth and unknown routes', () => {
  it('answers 401 without the bot token and 404 on an unknown route', async () => {
    const res = await fetch(`${sandbox.apiBase}/v10/guilds/${guilds.station}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    expect((await bot(sandbox, 'GET', '/nowhere')).body).toEqual({ message: '404: Not Found', code: 0 });
  });

  it('uses Discord codes for unknown guild, channel, role and member', async () => {
    expect((await bot(sandbox, 'GET', '/guilds/1')).body).toMatchObject({ code: 10004 });
    expect((await bot(sandbox, 'GET', '/channels/1/messages')).body).toMatchObject({ code: 10003 });
    expect(
      (await bot(sandbox, 'PATCH', `/guilds/${guilds.station}/roles/1`, { name: 'x' })).body,
    ).toMatchObject({ code: 10011 });
    // rex is a user, but not a member of Sandbox Station.
    expect((await bot(sandbox, 'GET', `/guilds/${guilds.station}/members/${users.rex}`)).body).toMatchObject({
      code: 10007,
    });
    expect((await bot(sandbox, 'GET', `/guilds/${guilds.station}/members/1`)).body).toMatchObject({
      code: 10013,
    });
    expect((await bot(sandbox, 'GET', `/channels/${channels.general}/messages/1`)).body).toMatchObject({
      code: 10008,
    });
  });

  it.each([
    ['a success', `/guilds/${guilds.station}/channels`],
    ['an unknown route', '/nowhere/at/all'],
    ['a Discord error', '/guilds/1'],
  ])('sends rate-limit headers on %s', async (_name, path) => {
    const res = await bot(sandbox, 'GET', path);
    for (const name of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-reset-after',
      'x-ratelimit-bucket',
    ]) {
      expect(res.headers.get(name)).toBeTruthy();
    }
  });
});

describe('gateway discovery', () => {
  it('answers /gateway/bot with a ws URL without query string, built from the Host the caller used', async () => {
    const direct = await bot(sandbox, 'GET', '/gateway/bot');
    expect(direct.body).toEqual({
      url: `ws://127.0.0.1:${sandbox.port}/gateway`,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
    });
    const viaCompose = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${sandbox.apiBase}/v10/gateway/bot`,
        { headers: { host: 'sandbox:4100', authorization: 'Bot sandbox-bot-token' } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += String(chunk);
          });
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(viaCompose)).toMatchObject({ url: 'ws://sandbox:4100/gateway' });
  });
});

describe('roles', () => {
  it('creates roles until the 250 cap, then answers 30005', async () => {
    const existing = ((await bot(sandbox, 'GET', `/guilds/${guilds.station}/roles`)).body as unknown[])
      .length;
    for (let i = existing; i < 250; i++) {
      const res = await bot(sandbox, 'POST', `/guilds/${guilds.station}/roles`, {
        name: `Color ${i}`,
        color: i,
      });
      expect(res.status).toBe(200);
    }
    const over = await bot(sandbox, 'POST', `/guilds/${guilds.station}/roles`, { name: 'one too many' });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ code: 30005, message: 'Maximum number of guild roles reached (250)' });
  });

  it('refuses to assign a role above the bot or a managed role, allows one below', async () => {
    const base = `/guilds/${guilds.station}/members/${users.nia}/roles`;
    expect((await bot(sandbox, 'PUT', `${base}/${roles.stationModerators}`)).body).toEqual({
      code: 50013,
      message: 'Missing Permissions',
    });
    expect((await bot(sandbox, 'PUT', `${base}/${roles.stationBot}`)).status).toBe(403);
    expect((await bot(sandbox, 'PUT', `${base}/${roles.stationManagers}`)).status).toBe(204);
    const member = await bot(sandbox, 'GET', `/guilds/${guilds.station}/members/${users.nia}`);
    expect((member.body as { roles: string[] }).roles).toContain(roles.stationManagers);
    expect(sandbox.state().guilds[0]?.members.find((m) => m.user_id === users.nia)?.roles).toContain(
      roles.stationManagers,
    );
  });

  it('edits, moves and deletes a role it created', async () => {
    const created = (
      await bot(sandbox, 'POST', `/guilds/${guilds.station}/roles`, { name: 'Red', color: 0xff0000 })
    ).body as { id: string; position: number };
    expect(created.position).toBe(1);
    const edited = await bot(sandbox, 'PATCH', `/guilds/${guilds.station}/roles/${created.id}`, {
      name: 'Crimson',
    });
    expect(edited.body).toMatchObject({ name: 'Crimson', color: 0xff0000 });
    const moved = await bot(sandbox, 'PATCH', `/guilds/${guilds.station}/roles`, [
      { id: created.id, position: 2 },
    ]);
    expect(moved.status).toBe(200);
    const tooHigh = await bot(sandbox, 'PATCH', `/guilds/${guilds.station}/roles`, [
      { id: created.id, position: 9 },
    ]);
    expect(tooHigh.status).toBe(403);
    expect((await bot(sandbox, 'DELETE', `/guilds/${guilds.station}/roles/${created.id}`)).status).toBe(204);
    expect(
      (await bot(sandbox, 'DELETE', `/guilds/${guilds.station}/roles/${roles.stationModerators}`)).status,
    ).toBe(403);
  });
});

describe('role positions', () => {
  const path = `/guilds/${guilds.station}/roles`;
  /** Role names bottom to top, with their positions, as GET /roles answers. */
  const ladder = async () =>
    ((await bot(sandbox, 'GET', path)).body as Array<{ name: string; position: number }>).map(
      (r) => `${r.position}:${r.name}`,
    );

  it('puts a new role at position 1 and shifts every other role up', async () => {
    expect(await ladder()).toEqual(['0:@everyone', '1:Crew', '2:Managers', '3:Space Cadet', '4:Moderators']);
    await bot(sandbox, 'POST', path, { name: 'Red' });
    await bot(sandbox, 'POST', path, { name: 'Blue' });
    expect(await ladder()).toEqual([
      '0:@everyone',
      '1:Blue',
      '2:Red',
      '3:Crew',
      '4:Managers',
      '5:Space Cadet',
      '6:Moderators',
    ]);
  });

  it('reorders with PATCH /roles and renumbers positions contiguously', async () => {
    const red = (await bot(sandbox, 'POST', path, { name: 'Red' })).body as { id: string };
    const blue = (await bot(sandbox, 'POST', path, { name: 'Blue' })).body as { id: string };
    // Just below the bot (Space Cadet is at 5): the two colours take 4 and 3.
    const moved = await bot(sandbox, 'PATCH', path, [
      { id: red.id, position: 4 },
      { id: blue.id, position: 3 },
    ]);
    expect(moved.status).toBe(200);
    const expected = [
      '0:@everyone',
      '1:Crew',
      '2:Managers',
      '3:Blue',
      '4:Red',
      '5:Space Cadet',
      '6:Moderators',
    ];
    expect(
      (moved.body as Array<{ name: string; position: number }>).map((r) => `${r.position}:${r.name}`),
    ).toEqual(expected);
    expect(await ladder()).toEqual(expected);
  });

  it('answers 50013 when the bot moves a role to or above its own highest role, and changes nothing', async () => {
    const red = (await bot(sandbox, 'POST', path, { name: 'Red' })).body as { id: string };
    const before = await ladder();
    for (const position of [4, 5, 40]) {
      const res = await bot(sandbox, 'PATCH', path, [{ id: red.id, position }]);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 50013, message: 'Missing Permissions' });
    }
    // A role above the bot cannot be moved at all, not even downwards.
    const down = await bot(sandbox, 'PATCH', path, [{ id: roles.stationModerators, position: 1 }]);
    expect(down.body).toMatchObject({ code: 50013 });
    expect(await ladder()).toEqual(before);
  });

  it('rejects a body that is not a list of {id, position} and an unknown role', async () => {
    expect((await bot(sandbox, 'PATCH', path, { id: roles.stationCrew, position: 2 })).body).toMatchObject({
      code: 50035,
    });
    const bad = await bot(sandbox, 'PATCH', path, [
      { id: roles.stationCrew, position: 2 },
      { position: 'x' },
    ]);
    expectFieldErrors(bad, ['1', 'id'], 'BASE_TYPE_REQUIRED');
    expectFieldErrors(bad, ['1', 'position'], 'NUMBER_TYPE_COERCE');
    expect((await bot(sandbox, 'PATCH', path, [{ id: '1', position: 2 }])).body).toMatchObject({
      code: 10011,
    });
  });
});

/** Asserts Discord's 50035 answer: `errors` nested by field down to `_errors: [{code, message}]`. */
function expectFieldErrors(res: { status: number; body: unknown }, path: string[], code: string): void {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
  let node = (res.body as { errors: Record<string, unknown> }).errors;
  for (const key of path) node = node[key] as Record<string, unknown>;
  expect(node._errors).toEqual([{ code, message: expect.any(String) }]);
}

describe('50035 Invalid Form Body', () => {
  it('nests errors by field on every route that sends it', async () => {
    expectFieldErrors(
      await bot(sandbox, 'GET', `/guilds/${guilds.station}/members/search`),
      ['query'],
      'BASE_TYPE_REQUIRED',
    );
    expectFieldErrors(
      await bot(sandbox, 'POST', `/guilds/${guilds.station}/roles`, { name: 'x'.repeat(101) }),
      ['name'],
      'BASE_TYPE_MAX_LENGTH',
    );
  });
});

describe('message validation', () => {
  const post = (body: unknown) => bot(sandbox, 'POST', `/channels/${channels.roles}/messages`, body);

  it('posts a valid panel and lists it in state with its components', async () => {
    const res = await post({
      content: 'Pick a color',
      components: [row(button('color:red'), button('color:blue'))],
    });
    expect(res.status).toBe(200);
    const channel = sandbox.state().guilds[0]?.channels.find((c) => c.id === channels.roles);
    expect(channel?.messages[0]?.components).toHaveLength(1);
  });

  it('numbers components as Discord does, in REST answers, gateway dispatches and state, keeping ids sent', async () => {
    const seen: unknown[] = [];
    sandbox.world.events.on('dispatch', (event: { t: string; d: unknown }) => {
      if (event.t === 'MESSAGE_CREATE' || event.t === 'MESSAGE_UPDATE') seen.push(event.d);
    });
    const idsOf = (message: unknown) =>
      (
        (message as { components: Array<{ id: number; components: Array<{ id: number }> }> }).components ?? []
      ).map((r) => [r.id, ...r.components.map((c) => c.id)]);
    const res = await post({ components: [row(button('a'), button('b')), row(button('c'))] });
    expect(idsOf(res.body)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    const id = (res.body as { id: string }).id;
    expect(idsOf((await bot(sandbox, 'GET', `/channels/${channels.roles}/messages/${id}`)).body)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    const stored = sandbox.state().guilds[0]?.channels.find((c) => c.id === channels.roles)?.messages[0];
    expect(idsOf(stored)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // Ids sent are kept; the others take the free numbers in order.
    const edited = await bot(sandbox, 'PATCH', `/channels/${channels.roles}/messages/${id}`, {
      components: [row({ ...button('a'), id: 2 }, button('b'))],
    });
    expect(idsOf(edited.body)).toEqual([[1, 2, 3]]);
    expect(seen.map(idsOf)).toEqual([
      [
        [1, 2, 3],
        [4, 5],
      ],
      [[1, 2, 3]],
    ]);
  });

  it.each([
    [
      'more than 5 rows',
      { components: Array.from({ length: 6 }, (_, r) => row(button(`b${r}`))) },
      ['components'],
    ],
    [
      'more than 5 buttons in a row',
      { components: [row(...Array.from({ length: 6 }, (_, i) => button(`b${i}`)))] },
      ['components', '0', 'components'],
    ],
    [
      'a custom_id over 100 chars',
      { components: [row(button('x'.repeat(101)))] },
      ['components', '0', 'components', '0', 'custom_id'],
    ],
    [
      'more than 25 select options',
      {
        components: [
          row({
            type: 3,
            custom_id: 'pick',
            options: Array.from({ length: 26 }, (_, i) => ({ label: `o${i}`, value: `o${i}` })),
          }),
        ],
      },
      ['components', '0', 'components', '0', 'options'],
    ],
    ['content over 2000 chars', { content: 'x'.repeat(2001) }, ['content']],
    ['more than 10 embeds', { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }, ['embeds']],
  ])('rejects %s with 50035', async (_name, body, path) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    let node = (res.body as { errors: Record<string, unknown> }).errors;
    for (const key of path) node = node[key] as Record<string, unknown>;
    expect(node._errors).toEqual([
      expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    ]);
  });

  it('rejects an empty message with 50006', async () => {
    expect((await post({ content: '' })).body).toEqual({
      code: 50006,
      message: 'Cannot send an empty message',
    });
  });
});

describe('faults', () => {
  it('fails the next matching calls with 429 and rate-limit headers, then recovers', async () => {
    const path = `/guilds/${guilds.station}/roles`;
    expect(
      (
        await control(sandbox, 'POST', '/faults', {
          method: 'GET',
          path,
          status: 429,
          count: 2,
          retry_after: 0.25,
        })
      ).status,
    ).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await bot(sandbox, 'GET', path);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('0.25');
      expect(res.body).toEqual({ message: 'You are being rate limited.', retry_after: 0.25, global: false });
    }
    expect((await bot(sandbox, 'POST', path, { name: 'not a GET' })).status).toBe(200);
    expect((await bot(sandbox, 'GET', path)).status).toBe(200);
  });

  it('fails calls under a path prefix with a 5xx', async () => {
    await control(sandbox, 'POST', '/faults', { path: '/channels/', status: 503, count: 1 });
    expect((await bot(sandbox, 'GET', `/channels/${channels.general}/messages`)).status).toBe(503);
    expect((await bot(sandbox, 'GET', `/channels/${channels.general}/messages`)).status).toBe(200);
  });
});

describe('control members', () => {
  it('joins and removes a member', async () => {
    expect((await control(sandbox, 'PUT', `/guilds/${guilds.station}/members/${users.rex}`)).status).toBe(
      200,
    );
    expect((await bot(sandbox, 'GET', `/guilds/${guilds.station}/members/${users.rex}`)).status).toBe(200);
    expect((await control(sandbox, 'DELETE', `/guilds/${guilds.station}/members/${users.rex}`)).status).toBe(
      200,
    );
    expect((await bot(sandbox, 'GET', `/guilds/${guilds.station}/members/${users.rex}`)).status).toBe(404);
    const list = await bot(sandbox, 'GET', `/guilds/${guilds.station}/members?limit=1000`);
    expect((list.body as unknown[]).length).toBe(4);
  });

  it('reset restores the fixture', async () => {
    await bot(sandbox, 'POST', `/guilds/${guilds.station}/roles`, { name: 'temp' });
    await control(sandbox, 'POST', '/reset');
    expect(sandbox.state().guilds[0]?.roles.some((r) => r.name === 'temp')).toBe(false);
  });
});
