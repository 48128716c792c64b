import { waitFor as pollUntilDeadline } from '@spacecadet/testing';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type Client,
  Events,
  GatewayIntentBits,
  type GuildMember,
  type Interaction,
  type Message,
  MessageFlags,
  StringSelectMenuBuilder,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultFixture,
  makeBotRole,
  SANDBOX_BOT_TOKEN,
  SANDBOX_IDS,
  type Sandbox,
  startSandbox,
} from '../src/index.ts';
import { eventually, readyClient, waitFor } from './discordjs-helpers.ts';
import { control } from './helpers.ts';

let sandbox: Sandbox | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.destroy();
  await sandbox?.close();
});

const { guilds, channels, users } = SANDBOX_IDS;
const shardOf = (id: string, count: number) => Number((BigInt(id) >> 22n) % BigInt(count));

async function start(fixture = defaultFixture()): Promise<Sandbox> {
  sandbox = await startSandbox({ port: 0, fixture });
  return sandbox;
}
async function client(sb: Sandbox, shard?: [number, number]): Promise<Client> {
  const c = await readyClient(sb, shard);
  clients.push(c);
  return c;
}

describe('gateway sharding', () => {
  it('gives each shard only the guilds whose id maps to it', async () => {
    const fixture = defaultFixture();
    const station = fixture.guilds.find((g) => g.id === guilds.station);
    if (!station) throw new Error('no station');
    // A guild id on the other shard of two: flip the low bit of the timestamp part.
    const otherId = (((BigInt(guilds.station) >> 22n) ^ 1n) << 22n).toString();
    const botRoleId = (BigInt(otherId) + 1n).toString();
    fixture.guilds.push({
      ...structuredClone(station),
      id: otherId,
      name: 'Far Side',
      roles: [
        { ...station.roles[0], id: otherId } as (typeof station.roles)[0],
        makeBotRole(botRoleId, 1, SANDBOX_IDS.bot, '268435456'),
      ],
      channels: [],
      members: [
        { user_id: SANDBOX_IDS.bot, roles: [botRoleId], nick: null, joined_at: '2024-01-01T00:00:00.000Z' },
      ],
    });
    const sb = await start(fixture);
    const [a, b] = await Promise.all([client(sb, [0, 2]), client(sb, [1, 2])]);
    const all = [guilds.station, guilds.orbit, otherId];
    const expectFor = (shard: number) => all.filter((id) => shardOf(id, 2) === shard).sort();
    expect(expectFor(0).length).toBeGreaterThan(0);
    expect(expectFor(1).length).toBeGreaterThan(0);
    expect([...a.guilds.cache.keys()].sort()).toEqual(expectFor(0));
    expect([...b.guilds.cache.keys()].sort()).toEqual(expectFor(1));
  });
});

describe('gateway events and interaction flows', () => {
  it('dispatches member joins and leaves made through the control API', async () => {
    const sb = await start();
    const bot = await client(sb);
    const joined = waitFor<GuildMember>((l) => {
      bot.on(Events.GuildMemberAdd, l);
      return () => bot.off(Events.GuildMemberAdd, l);
    });
    await control(sb, 'PUT', `/guilds/${guilds.station}/members/${users.rex}`);
    expect((await joined).id).toBe(users.rex);
    const left = waitFor<unknown>((l) => {
      bot.on(Events.GuildMemberRemove, l);
      return () => bot.off(Events.GuildMemberRemove, l);
    });
    await control(sb, 'DELETE', `/guilds/${guilds.station}/members/${users.rex}`);
    await left;
    expect(bot.guilds.cache.get(guilds.station)?.members.cache.has(users.rex)).toBe(false);
  });

  it('blanks message content without the MessageContent intent unless the bot is mentioned', async () => {
    const sb = await start();
    const bot = await client(sb);
    const seen: Message[] = [];
    bot.on(Events.MessageCreate, (m) => seen.push(m));
    const post = async (content: string) =>
      (
        (
          await control(sb, 'POST', '/messages', {
            guild_id: guilds.station,
            channel_id: channels.general,
            author_id: users.mo,
            content,
          })
        ).body as { id: string }
      ).id;
    const plain = await post('just chatting');
    const mention = await post(`hey <@${SANDBOX_IDS.bot}> and <@&${SANDBOX_IDS.roles.stationCrew}>`);
    const byId = (id: string) => eventually(() => seen.find((m) => m.id === id));
    expect((await byId(plain))?.content).toBe('');
    const mentioned = await byId(mention);
    expect(mentioned?.content).toContain('hey');
    expect(mentioned?.mentions.users.has(SANDBOX_IDS.bot)).toBe(true);
    expect(mentioned?.mentions.roles.has(SANDBOX_IDS.roles.stationCrew)).toBe(true);
  });

  it('handles deferred replies, follow-ups, message updates and selects', async () => {
    const sb = await start();
    const bot = await client(sb);
    bot.on(Events.InteractionCreate, async (interaction: Interaction) => {
      if (interaction.isButton() && interaction.customId === 'slow') {
        await interaction.deferReply({ flags: MessageFlags.Ephemeral });
        await interaction.editReply({ content: 'done slowly' });
        await interaction.followUp({ content: 'and one more', flags: MessageFlags.Ephemeral });
      }
      if (interaction.isButton() && interaction.customId === 'swap') {
        await interaction.update({ content: 'swapped', components: [] });
      }
      if (interaction.isStringSelectMenu()) {
        await interaction.reply({
          content: `picked ${interaction.values.join(',')}`,
          flags: MessageFlags.Ephemeral,
        });
      }
    });
    const channel = bot.channels.cache.get(channels.roles);
    if (!channel?.isSendable()) throw new Error('not sendable');
    const panel = await channel.send({
      content: 'panel',
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('slow').setLabel('Slow').setStyle(ButtonStyle.Primary),
          new ButtonBuilder().setCustomId('swap').setLabel('Swap').setStyle(ButtonStyle.Secondary),
        ),
        new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
          new StringSelectMenuBuilder()
            .setCustomId('zodiac')
            .setMaxValues(2)
            .addOptions({ label: 'Leo', value: 'leo' }, { label: 'Virgo', value: 'virgo' }),
        ),
      ],
    });
    const click = (custom_id: string, values?: string[]) =>
      control(sb, 'POST', '/interactions', {
        guild_id: guilds.station,
        channel_id: channels.roles,
        message_id: panel.id,
        user_id: users.nia,
        custom_id,
        ...(values ? { values } : {}),
      });

    const slow = (await click('slow')).body as {
      responded: boolean;
      interaction_id: string;
      response: { type: number };
    };
    expect(slow).toMatchObject({ responded: true, response: { type: 5 } });
    const record = await waitUntilFollowUp(sb, slow.interaction_id);
    expect(record.original?.content).toBe('done slowly');
    expect(record.followups.map((m) => m.content)).toEqual(['and one more']);

    const picked = (await click('zodiac', ['leo', 'virgo'])).body as {
      response: { data: { content: string } };
    };
    expect(picked.response.data.content).toBe('picked leo,virgo');

    const swapped = (await click('swap')).body as { response: { type: number } };
    expect(swapped.response.type).toBe(7);
    const stored = sb.state().guilds[0]?.channels.find((c) => c.id === channels.roles)?.messages[0];
    expect(stored?.content).toBe('swapped');
    expect(stored?.components).toEqual([]);
  });

  it('reports responded: false when the bot does not answer in time', async () => {
    sandbox = await startSandbox({ port: 0, interactionTimeoutMs: 200 });
    const bot = await client(sandbox);
    const channel = bot.channels.cache.get(channels.roles);
    if (!channel?.isSendable()) throw new Error('not sendable');
    const panel = await channel.send({
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('ignored').setLabel('Nobody home').setStyle(ButtonStyle.Primary),
        ),
      ],
    });
    const res = await control(sandbox, 'POST', '/interactions', {
      guild_id: guilds.station,
      channel_id: channels.roles,
      message_id: panel.id,
      user_id: users.mo,
      custom_id: 'ignored',
    });
    expect(res.body).toMatchObject({ responded: false, response: null });
  });

  it('closes with 4014 when IDENTIFY asks for a privileged intent the application has not enabled', async () => {
    const identifyWith = async (sb: Sandbox, intents: number) => {
      const { WebSocket } = await import('ws');
      const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/gateway?v=10&encoding=json`);
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
      );
      const ready = new Promise<unknown>((resolve) =>
        ws.on('message', (raw) => {
          const payload = JSON.parse(raw.toString()) as { op: number; t?: string; d: unknown };
          if (payload.op === 10) {
            ws.send(JSON.stringify({ op: 2, d: { token: SANDBOX_BOT_TOKEN, intents, properties: {} } }));
          }
          if (payload.t === 'READY') resolve(payload.d);
        }),
      );
      return Promise.race([closed, ready.then((d) => ({ ready: d }))]).finally(() => ws.close());
    };
    const sb = await start();
    // Message Content and Presences are off in the default fixture; Server Members is on.
    for (const intent of [GatewayIntentBits.MessageContent, GatewayIntentBits.GuildPresences]) {
      expect(await identifyWith(sb, GatewayIntentBits.Guilds | intent)).toEqual({
        code: 4014,
        reason: 'Disallowed intent(s).',
      });
    }
    const members = await identifyWith(sb, GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers);
    expect(members).toMatchObject({ ready: { application: { flags: 1 << 15 } } });
    await sb.close();

    const fixture = defaultFixture();
    fixture.application.privileged_intents = 0;
    const strict = await start(fixture);
    expect(
      await identifyWith(strict, GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers),
    ).toMatchObject({
      code: 4014,
    });
  });

  it('closes the connection with 4004 on a bad token', async () => {
    const sb = await start();
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/gateway?v=10&encoding=json`);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('message', (raw) => {
      const payload = JSON.parse(raw.toString()) as { op: number; d: { heartbeat_interval?: number } };
      if (payload.op === 10) {
        expect(payload.d.heartbeat_interval).toBe(41250);
        ws.send(JSON.stringify({ op: 2, d: { token: 'wrong', intents: 1, properties: {} } }));
      }
    });
    expect(await closed).toBe(4004);
  });
});

async function waitUntilFollowUp(sb: Sandbox, id: string) {
  type Rec = { original: { content: string } | null; followups: Array<{ content: string }> };
  return pollUntilDeadline(
    'a follow-up',
    async () => {
      const rec = (await control(sb, 'GET', `/interactions/${id}`)).body as Rec;
      return rec.followups.length > 0 && rec.original ? rec : undefined;
    },
    { timeoutMs: 5000, intervalMs: 20 },
  );
}
