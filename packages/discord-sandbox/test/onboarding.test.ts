import { type APIGuildOnboarding, PermissionFlagsBits } from 'discord-api-types/v10';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { bot, control } from './helpers.ts';
import {
  KEPT_OPTION_ID,
  PROMPT_ID,
  ONBOARDING_PATH as path,
  question,
  roomyFixture,
  startManaging,
} from './onboarding-helpers.ts';

const { guilds, channels, users, roles } = SANDBOX_IDS;
const SNOWFLAKE = /^\d{17,20}$/;

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

async function start(fixture?: Parameters<typeof startManaging>[0]): Promise<Sandbox> {
  sandbox = await startManaging(fixture);
  return sandbox;
}

describe('GET /guilds/:id/onboarding', () => {
  it("answers Discord's default for a guild that never set one", async () => {
    await start();
    expect((await bot(sandbox, 'GET', path)).body).toEqual({
      guild_id: guilds.station,
      prompts: [],
      default_channel_ids: [],
      enabled: false,
      mode: 0,
    });
    expect((await bot(sandbox, 'GET', '/guilds/1/onboarding')).body).toMatchObject({ code: 10004 });
    expect((await bot(sandbox, 'GET', `/guilds/${guilds.quiet}/onboarding`)).body).toMatchObject({
      code: 50001,
    });
  });

  it('needs MANAGE_GUILD while onboarding is disabled', async () => {
    sandbox = await startSandbox({ port: 0 });
    const res = await bot(sandbox, 'GET', path);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 50013, message: 'Missing Permissions' });
  });
});

describe('PUT /guilds/:id/onboarding', () => {
  it('stores the prompts, keeps sent ids, gives new options snowflakes and answers emoji objects', async () => {
    await start();
    const res = await bot(sandbox, 'PUT', path, {
      prompts: [question()],
      default_channel_ids: [channels.roles],
    });
    expect(res.status).toBe(200);
    const body = res.body as APIGuildOnboarding;
    const [prompt] = body.prompts;
    expect(prompt).toMatchObject({
      id: PROMPT_ID,
      title: 'What brings you aboard?',
      single_select: true,
      type: 0,
    });
    const [crew, management] = prompt?.options ?? [];
    expect(crew?.id).toMatch(SNOWFLAKE);
    expect(crew).toMatchObject({
      title: 'Crew',
      description: 'Work the station',
      emoji: { id: null, name: '🚀', animated: false },
      role_ids: [roles.stationCrew],
      channel_ids: [channels.general],
    });
    expect(management).toMatchObject({
      id: KEPT_OPTION_ID,
      description: '',
      emoji: { id: null, name: null, animated: false },
    });
    expect(body).toMatchObject({ default_channel_ids: [channels.roles], enabled: false, mode: 0 });
    expect((await bot(sandbox, 'GET', path)).body).toEqual(body);
    expect(sandbox.state().guilds.find((g) => g.id === guilds.station)?.onboarding).toEqual(body);

    // Roles handed out by a prompt carry IN_PROMPT (1 << 0); absent fields keep their value.
    const crewRole = await bot(sandbox, 'GET', `/guilds/${guilds.station}/roles/${roles.stationCrew}`);
    expect(crewRole.body).toMatchObject({ flags: 1 });
    const modeOnly = await bot(sandbox, 'PUT', path, { mode: 1 });
    expect(modeOnly.body).toEqual({ ...body, mode: 1 });
    const cleared = await bot(sandbox, 'PUT', path, { prompts: [] });
    expect((cleared.body as APIGuildOnboarding).prompts).toEqual([]);
    expect(
      (await bot(sandbox, 'GET', `/guilds/${guilds.station}/roles/${roles.stationCrew}`)).body,
    ).toMatchObject({
      flags: 0,
    });
  });

  it('answers 50035 for roles and channels that are not usable in this guild, and stores nothing', async () => {
    await start();
    const res = await bot(sandbox, 'PUT', path, {
      prompts: [
        question({
          options: [{ title: 'Elsewhere', role_ids: [roles.orbitBot, guilds.station, roles.stationBot] }],
        }),
      ],
      default_channel_ids: [channels.orbitHangar],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    const errors = (res.body as { errors: Record<string, unknown> }).errors;
    expect(errors).toMatchObject({
      prompts: { 0: { options: { 0: { role_ids: { 0: {}, 1: {}, 2: {} } } } } },
      default_channel_ids: { 0: { _errors: [{ code: 'CHANNEL_INVALID' }] } },
    });
    expect((await bot(sandbox, 'GET', path)).body).toMatchObject({ prompts: [], default_channel_ids: [] });
  });

  it('checks lengths, counts and the required prompt id like Discord', async () => {
    await start();
    const long = await bot(sandbox, 'PUT', path, { prompts: [question({ title: 'x'.repeat(101) })] });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      code: 50035,
      errors: {
        prompts: {
          0: {
            title: {
              _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }],
            },
          },
        },
      },
    });
    const option = await bot(sandbox, 'PUT', path, {
      prompts: [question({ options: [{ title: 'y'.repeat(51), description: 'z'.repeat(101) }] })],
    });
    expect(option.body).toMatchObject({
      errors: {
        prompts: {
          0: {
            options: {
              0: {
                title: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH' }] },
                description: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] },
              },
            },
          },
        },
      },
    });
    const many = await bot(sandbox, 'PUT', path, {
      prompts: Array.from({ length: 16 }, (_, i) =>
        question({ id: String(1067461047608422500n + BigInt(i)) }),
      ),
    });
    expect(many.body).toMatchObject({ errors: { prompts: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } });
    const { id: _id, ...noId } = question();
    const missing = await bot(sandbox, 'PUT', path, { prompts: [noId] });
    expect(missing.body).toMatchObject({
      errors: { prompts: { 0: { id: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } } } },
    });
    const empty = await bot(sandbox, 'PUT', path, { prompts: [question({ options: [] })] });
    expect(empty.body).toMatchObject({
      errors: { prompts: { 0: { options: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH' }] } } } },
    });
  });

  it('refuses to enable below 7 default channels (350000), then to stay enabled below them (350001)', async () => {
    await start();
    const few = await bot(sandbox, 'PUT', path, { enabled: true, default_channel_ids: [channels.general] });
    expect(few.status).toBe(400);
    expect(few.body).toEqual({ code: 350000, message: 'Cannot enable onboarding, requirements are not met' });
    await sandbox.close();

    const { fixture, ids } = roomyFixture();
    await start(fixture);
    const on = await bot(sandbox, 'PUT', path, { enabled: true, default_channel_ids: ids });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, default_channel_ids: ids });
    const shrink = await bot(sandbox, 'PUT', path, { default_channel_ids: ids.slice(0, 3) });
    expect(shrink.body).toEqual({
      code: 350001,
      message: 'Cannot update onboarding while below requirements',
    });
    expect((await bot(sandbox, 'PUT', path, { enabled: false, default_channel_ids: [] })).status).toBe(200);
  });

  it('counts only channels where @everyone may send messages towards the 5 chattable ones', async () => {
    // Eight text channels, four of them closed to @everyone: only four chattable.
    const { fixture, ids } = roomyFixture(4);
    await start(fixture);
    const res = await bot(sandbox, 'PUT', path, { enabled: true, default_channel_ids: ids });
    expect(res.body).toMatchObject({ code: 350000 });
  });

  it('needs MANAGE_ROLES as well as MANAGE_GUILD (50013)', async () => {
    await start();
    await control(sandbox, 'PATCH', `/guilds/${guilds.station}/roles/${roles.stationBot}`, {
      permissions: PermissionFlagsBits.ManageGuild.toString(),
    });
    const res = await bot(sandbox, 'PUT', path, { prompts: [question()] });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 50013, message: 'Missing Permissions' });
  });
});

describe('POST /_sandbox/guilds/:g/onboarding/answers', () => {
  const answers = `/guilds/${guilds.station}/onboarding/answers`;

  it('gives the member the roles of the chosen options and enforces single_select', async () => {
    await start();
    const put = await bot(sandbox, 'PUT', path, { prompts: [question()] });
    const options = (put.body as APIGuildOnboarding).prompts[0]?.options ?? [];
    const ids = options.map((o) => o.id);

    const both = await control(sandbox, 'POST', answers, { user_id: users.nia, option_ids: ids });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ error: 'single_select' });
    expect(
      (await control(sandbox, 'POST', answers, { user_id: users.nia, option_ids: ['1'] })).body,
    ).toMatchObject({
      error: 'unknown_option',
    });
    expect((await control(sandbox, 'POST', answers, { user_id: users.rex, option_ids: [] })).status).toBe(
      404,
    );

    const res = await control(sandbox, 'POST', answers, { user_id: users.nia, option_ids: [KEPT_OPTION_ID] });
    expect(res.status).toBe(200);
    expect((res.body as { roles: string[] }).roles.sort()).toEqual(
      [roles.stationCrew, roles.stationManagers].sort(),
    );
  });

  it('forgets a deleted role in the options', async () => {
    await start();
    await bot(sandbox, 'PUT', path, { prompts: [question()] });
    await control(sandbox, 'DELETE', `/guilds/${guilds.station}/roles/${roles.stationManagers}`);
    const options = ((await bot(sandbox, 'GET', path)).body as APIGuildOnboarding).prompts[0]?.options;
    expect(options?.find((o) => o.id === KEPT_OPTION_ID)?.role_ids).toEqual([]);
  });
});
