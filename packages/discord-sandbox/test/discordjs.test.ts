import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type Client,
  Events,
  type Guild,
  type Interaction,
  type Message,
  MessageFlags,
} from 'discord.js';
import { describe, expect, it } from 'vitest';
import { SANDBOX_IDS } from '../src/index.ts';
import { eventually, readyClient, sandboxPerTest, waitFor } from './discordjs-helpers.ts';
import { authorize, control } from './helpers.ts';

const { sandbox, keep } = sandboxPerTest();

const { guilds, channels, users, roles } = SANDBOX_IDS;
async function client(shard?: [number, number]): Promise<Client> {
  const c = await readyClient(sandbox(), shard);
  keep(c);
  return c;
}

describe('discord.js against the sandbox()', () => {
  it('logs in, receives READY and caches the guilds the bot is in', async () => {
    const bot = await client();
    expect(bot.user?.id).toBe(SANDBOX_IDS.bot);
    expect([...bot.guilds.cache.keys()].sort()).toEqual([guilds.station, guilds.orbit]);
    const station = bot.guilds.cache.get(guilds.station);
    expect(station?.channels.cache.get(channels.general)?.name).toBe('general');
    expect(station?.roles.everyone.id).toBe(guilds.station);
    expect(station?.members.me?.roles.highest.name).toBe('Space Cadet');
    const presence = (await control(sandbox(), 'GET', '/presence')).body as { online: boolean };
    expect(presence.online).toBe(true);
  });

  it('emits guildCreate when ada installs the bot on Quiet Quarters', async () => {
    const bot = await client();
    const created = waitFor<Guild>((l) => {
      bot.on(Events.GuildCreate, l);
      return () => bot.off(Events.GuildCreate, l);
    });
    const res = await authorize(sandbox(), { scope: 'bot', sandbox_user: users.ada, guild_id: guilds.quiet });
    expect(res.status).toBe(302);
    const guild = await created;
    expect(guild.id).toBe(guilds.quiet);
    expect(guild.members.me?.roles.highest.managed).toBe(true);
  });

  it('creates a role through discord.js and sees it in state and in its cache', async () => {
    const bot = await client();
    const station = bot.guilds.cache.get(guilds.station);
    const role = await station?.roles.create({ name: 'Teal', colors: { primaryColor: 0x008080 } });
    expect(role?.name).toBe('Teal');
    const dumped = sandbox()
      .state()
      .guilds.find((g) => g.id === guilds.station);
    expect(dumped?.roles.find((r) => r.id === role?.id)?.color).toBe(0x008080);
    await eventually(() => station?.roles.cache.get(role?.id ?? '') ?? undefined);
    const member = await station?.members.fetch(users.nia);
    await member?.roles.add(role?.id ?? '');
    expect(
      sandbox()
        .state()
        .guilds[0]?.members.find((m) => m.user_id === users.nia)?.roles,
    ).toContain(role?.id);
    await expect(member?.roles.add(roles.stationModerators)).rejects.toMatchObject({ code: 50013 });
  });

  it('moves roles with guild.roles.setPositions and keeps the cache in step through GUILD_ROLE_UPDATE', async () => {
    const bot = await client();
    const station = bot.guilds.cache.get(guilds.station);
    if (!station) throw new Error('station not cached');
    const teal = await station.roles.create({ name: 'Teal' });
    // Creating shifted every other role up; discord.js learns it from GUILD_ROLE_UPDATE.
    await eventually(() => station.roles.cache.get(roles.stationBot)?.position === 4 || undefined);
    expect(teal.position).toBe(1);
    await station.roles.setPositions([{ role: teal.id, position: 3 }]);
    await eventually(() => station.roles.cache.get(teal.id)?.position === 3 || undefined);
    expect(station.roles.cache.get(roles.stationManagers)?.position).toBe(2);
    expect(station.members.me?.roles.highest.comparePositionTo(teal)).toBeGreaterThan(0);
    await expect(station.roles.setPositions([{ role: teal.id, position: 5 }])).rejects.toMatchObject({
      code: 50013,
    });
  });

  it('delivers a button click and records the ephemeral reply within the deadline', async () => {
    const bot = await client();
    bot.on(Events.InteractionCreate, (interaction: Interaction) => {
      if (interaction.isButton() && interaction.customId === 'color:red') {
        void interaction.reply({
          content: `Red for ${interaction.user.username}`,
          flags: MessageFlags.Ephemeral,
        });
      }
    });
    const channel = bot.channels.cache.get(channels.roles);
    if (!channel?.isSendable()) throw new Error('roles channel not sendable');
    const panel = await channel.send({
      content: 'Pick a color',
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('color:red').setLabel('Red').setStyle(ButtonStyle.Danger),
        ),
      ],
    });
    const res = await control(sandbox(), 'POST', '/interactions', {
      guild_id: guilds.station,
      channel_id: channels.roles,
      message_id: panel.id,
      user_id: users.nia,
      custom_id: 'color:red',
    });
    const body = res.body as {
      responded: boolean;
      response: { type: number; data: { content: string; flags: number } };
    };
    // Answered at all means within the 3 s the sandbox(), like Discord, gives a first answer.
    expect(body.responded).toBe(true);
    expect(body.response.type).toBe(4);
    expect(body.response.data).toMatchObject({ content: 'Red for nia', flags: 64 });
    const stored =
      sandbox()
        .state()
        .guilds[0]?.channels.find((c) => c.id === channels.roles)?.messages ?? [];
    expect(stored.map((m) => m.content)).toEqual(['Pick a color']);
  });

  it('resumes after a forced close and replays a message sent while disconnected', async () => {
    const bot = await client();
    const received = waitFor<Message>(
      (l) => {
        bot.on(Events.MessageCreate, l);
        return () => bot.off(Events.MessageCreate, l);
      },
      (m) => m.id === posted,
    );
    let posted = '';
    expect((await control(sandbox(), 'POST', '/gateway/close', { code: 4000, hold: true })).body).toEqual({
      closed: 1,
    });
    posted = (
      (
        await control(sandbox(), 'POST', '/messages', {
          guild_id: guilds.station,
          channel_id: channels.general,
          author_id: users.mo,
          content: 'hello while you were away',
        })
      ).body as { id: string }
    ).id;
    await control(sandbox(), 'POST', '/gateway/release');
    const message = await received;
    expect(message.author.id).toBe(users.mo);
    const presence = (await control(sandbox(), 'GET', '/presence')).body as {
      sessions: Array<{ resumes: number; replayed_events: number }>;
    };
    expect(presence.sessions[0]?.resumes).toBe(1);
    expect(presence.sessions[0]?.replayed_events).toBeGreaterThanOrEqual(1);
  });

  it('makes the bot identify anew after a close that ends the session (4009), losing what it missed', async () => {
    const bot = await client();
    type Presence = { sessions: Array<{ session_id: string; resumes: number }> };
    const before = (await control(sandbox(), 'GET', '/presence')).body as Presence;
    const deleted: string[] = [];
    bot.on(Events.GuildDelete, (guild) => deleted.push(guild.id));
    // discord.js would RESUME after a 4009; the sandbox() must refuse, so READY comes again.
    const readyAgain = waitFor<number>(
      (l) => {
        bot.on(Events.ShardReady, l);
        return () => bot.off(Events.ShardReady, l);
      },
      () => true,
      15_000,
    );
    expect((await control(sandbox(), 'POST', '/gateway/close', { code: 4009, hold: true })).body).toEqual({
      closed: 1,
    });
    await control(sandbox(), 'DELETE', `/guilds/${guilds.orbit}/members/${SANDBOX_IDS.bot}`);
    await control(sandbox(), 'POST', '/gateway/release');
    await readyAgain;
    const after = (await control(sandbox(), 'GET', '/presence')).body as Presence;
    expect(after.sessions).toHaveLength(1);
    expect(after.sessions[0]?.session_id).not.toBe(before.sessions[0]?.session_id);
    expect(after.sessions[0]?.resumes).toBe(0);
    // The GUILD_DELETE went to the dead session: only READY's guild list tells the bot.
    expect(deleted).toEqual([]);
  });

  it('retries a 429 and a 500 fault and then succeeds', async () => {
    const bot = await client();
    const station = bot.guilds.cache.get(guilds.station);
    await control(sandbox(), 'POST', '/faults', {
      method: 'POST',
      path: `/guilds/${guilds.station}/roles`,
      status: 429,
      count: 1,
      retry_after: 0.05,
    });
    const first = await station?.roles.create({ name: 'After 429' });
    expect(first?.name).toBe('After 429');
    await control(sandbox(), 'POST', '/faults', {
      method: 'POST',
      path: `/guilds/${guilds.station}/roles`,
      status: 500,
      count: 2,
    });
    const second = await station?.roles.create({ name: 'After 500' });
    expect(second?.name).toBe('After 500');
    const faults = (await control(sandbox(), 'GET', '/faults')).body as Array<{ remaining: number }>;
    expect(faults.every((f) => f.remaining === 0)).toBe(true);
  });
});
