import { type Client, DiscordAPIError, Events, type GuildMember } from 'discord.js';
import { type APIGuildOnboarding, PermissionFlagsBits, Routes } from 'discord-api-types/v10';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BOT_ROLE_PERMISSIONS,
  defaultFixture,
  SANDBOX_IDS,
  type Sandbox,
  type SandboxChannel,
  startSandbox,
} from '../src/index.ts';
import { readyClient, waitFor } from './discordjs-helpers.ts';
import { bot, control } from './helpers.ts';

const { guilds, channels, users, roles } = SANDBOX_IDS;
const path = `/guilds/${guilds.station}/onboarding`;
const SNOWFLAKE = /^\d{17,20}$/;
const PROMPT_ID = '1067461047608422473';
const KEPT_OPTION_ID = '1067461047608422476';

let sandbox: Sandbox;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.destroy();
  await sandbox.close();
});

const withBits = (...bits: bigint[]) => bits.reduce((a, b) => a | b, BigInt(BOT_ROLE_PERMISSIONS)).toString();

/** The bot's role gets MANAGE_GUILD, which the fixture leaves out, as an admin would give it. */
async function start(fixture = defaultFixture()): Promise<Sandbox> {
  sandbox = await startSandbox({ port: 0, fixture });
  await control(sandbox, 'PATCH', `/guilds/${guilds.station}/roles/${roles.stationBot}`, {
    permissions: withBits(PermissionFlagsBits.ManageGuild),
  });
  return sandbox;
}

function question(over: Record<string, unknown> = {}) {
  return {
    id: PROMPT_ID,
    title: 'What brings you aboard?',
    single_select: true,
    required: false,
    in_onboarding: true,
    type: 0,
    options: [
      {
        title: 'Crew',
        description: 'Work the station',
        role_ids: [roles.stationCrew],
        channel_ids: [channels.general],
        emoji_name: '🚀',
      },
      { id: KEPT_OPTION_ID, title: 'Management', role_ids: [roles.stationManagers], channel_ids: [] },
    ],
    ...over,
  };
}

/** Station plus enough text channels to enable onboarding; `closed` of them deny @everyone SEND_MESSAGES. */
function roomyFixture(closed = 0) {
  const fixture = defaultFixture();
  const station = fixture.guilds.find((g) => g.id === guilds.station);
  const general = station?.channels.find((c) => c.id === channels.general);
  if (!station || !general) throw new Error('fixture changed');
  for (let i = 0; i < 4; i += 1) {
    const deny = i < closed ? PermissionFlagsBits.SendMessages.toString() : '0';
    const extra: SandboxChannel = {
      ...structuredClone(general),
      id: `30000000000000009${i}`,
      name: `deck-${i}`,
      permission_overwrites: [{ id: guilds.station, type: 0, allow: '0', deny }],
    };
    station.channels.push(extra);
  }
  return { fixture, ids: station.channels.filter((c) => c.type === 0).map((c) => c.id) };
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
      description: null,
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

describe('discord.js against onboarding', () => {
  it('edits and fetches onboarding, surfaces DiscordAPIError codes and sees answers as member updates', async () => {
    await start();
    const client = await readyClient(sandbox);
    clients.push(client);
    const guild = client.guilds.cache.get(guilds.station);
    if (!guild) throw new Error('station not cached');

    const raw = (await client.rest.put(Routes.guildOnboarding(guilds.station), {
      body: { prompts: [question()] },
    })) as APIGuildOnboarding;
    expect(raw.prompts[0]?.id).toBe(PROMPT_ID);

    const edited = await guild.editOnboarding({
      prompts: [
        {
          title: 'Pick a deck',
          singleSelect: false,
          options: [{ title: 'Crew', roles: [roles.stationCrew], emoji: '🛰️' }],
        },
      ],
      defaultChannels: [channels.general],
    });
    const prompt = edited.prompts.first();
    expect(prompt?.title).toBe('Pick a deck');
    const option = prompt?.options.first();
    expect(option?.roles.firstKey()).toBe(roles.stationCrew);
    expect(option?.emoji?.name).toBe('🛰️');
    const fetched = await guild.fetchOnboarding();
    expect(fetched.defaultChannels.firstKey()).toBe(channels.general);
    expect(fetched.enabled).toBe(false);

    const refused = client.rest.put(Routes.guildOnboarding(guilds.station), { body: { enabled: true } });
    await expect(refused).rejects.toBeInstanceOf(DiscordAPIError);
    await expect(refused).rejects.toMatchObject({ code: 350000, status: 400 });
    await expect(
      client.rest.put(Routes.guildOnboarding(guilds.station), {
        body: { prompts: [question({ title: '' })] },
      }),
    ).rejects.toMatchObject({ code: 50035 });

    const updated = waitFor<GuildMember>((l) => {
      const listener = (_old: unknown, member: GuildMember) => l(member);
      client.on(Events.GuildMemberUpdate, listener);
      return () => client.off(Events.GuildMemberUpdate, listener);
    });
    await control(sandbox, 'POST', `/guilds/${guilds.station}/onboarding/answers`, {
      user_id: users.ada,
      option_ids: [option?.id],
    });
    const member = await updated;
    expect(member.id).toBe(users.ada);
    expect(member.roles.cache.has(roles.stationCrew)).toBe(true);
  });
});

describe('chat view', () => {
  it('shows the prompts to the acting member, whose click on an option grants its roles', async () => {
    await start();
    await bot(sandbox, 'PUT', path, { prompts: [question()] });
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${sandbox.url}/?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`);
      await page.locator(`[data-option-id="${KEPT_OPTION_ID}"]:not([disabled])`).click();
      await page.locator(`[data-testid="my-roles"] [data-role-id="${roles.stationManagers}"]`).waitFor();
      const nia = sandbox.state().guilds[0]?.members.find((m) => m.user_id === users.nia);
      expect(nia?.roles).toContain(roles.stationManagers);
    } finally {
      await browser.close();
    }
  });
});
