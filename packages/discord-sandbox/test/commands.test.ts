import {
  ApplicationCommandOptionType,
  type Client,
  Events,
  type Interaction,
  MessageFlags,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { readyClient } from './discordjs-helpers.ts';
import { control } from './helpers.ts';

let sandbox: Sandbox;
let client: Client | undefined;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  await client?.destroy();
  await sandbox.close();
});

const { guilds, channels, users } = SANDBOX_IDS;

describe('slash commands', () => {
  it('runs a registered command with typed and resolved options as a member', async () => {
    client = await readyClient(sandbox);
    await client.application?.commands.set([
      {
        name: 'boost',
        description: 'Boost a member',
        options: [
          { name: 'member', description: 'who', type: ApplicationCommandOptionType.User, required: true },
          { name: 'factor', description: 'how much', type: ApplicationCommandOptionType.Integer },
        ],
      },
    ]);
    client.on(Events.InteractionCreate, (interaction: Interaction) => {
      if (!interaction.isChatInputCommand() || interaction.commandName !== 'boost') return;
      const target = interaction.options.getUser('member', true);
      const factor = interaction.options.getInteger('factor') ?? 1;
      void interaction.reply({ content: `${target.username} x${factor * 2}`, flags: MessageFlags.Ephemeral });
    });
    const res = await control(sandbox, 'POST', '/commands', {
      guild_id: guilds.station,
      channel_id: channels.general,
      user_id: users.ada,
      name: 'boost',
      options: { member: users.nia, factor: '3' },
    });
    expect(res.body).toMatchObject({
      responded: true,
      response: { type: 4, data: { content: 'nia x6', flags: 64 } },
    });
  });

  it('answers 404 for a command the bot never registered and 400 for a missing required option', async () => {
    const body = { guild_id: guilds.station, channel_id: channels.general, user_id: users.ada };
    expect((await control(sandbox, 'POST', '/commands', { ...body, name: 'nope' })).status).toBe(404);
    await fetch(`${sandbox.apiBase}/v10/applications/${SANDBOX_IDS.app}/commands`, {
      method: 'PUT',
      headers: { authorization: 'Bot sandbox-bot-token', 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          name: 'greet',
          description: 'x',
          options: [{ name: 'who', description: 'y', type: 6, required: true }],
        },
      ]),
    });
    expect((await control(sandbox, 'POST', '/commands', { ...body, name: 'greet' })).status).toBe(400);
  });

  it('runs a subcommand named after its command ("xp set"), with its own options', async () => {
    client = await readyClient(sandbox);
    await client.application?.commands.set([
      {
        name: 'xp',
        description: 'Change XP',
        options: [
          {
            name: 'set',
            description: 'Set XP',
            type: ApplicationCommandOptionType.Subcommand,
            options: [
              { name: 'member', description: 'who', type: ApplicationCommandOptionType.User, required: true },
              {
                name: 'amount',
                description: 'how much',
                type: ApplicationCommandOptionType.Integer,
                required: true,
              },
            ],
          },
          { name: 'reset', description: 'Reset XP', type: ApplicationCommandOptionType.Subcommand },
        ],
      },
    ]);
    client.on(Events.InteractionCreate, (interaction: Interaction) => {
      if (!interaction.isChatInputCommand() || interaction.commandName !== 'xp') return;
      const sub = interaction.options.getSubcommand();
      const target = interaction.options.getUser('member')?.username ?? 'nobody';
      const amount = interaction.options.getInteger('amount') ?? 0;
      void interaction.reply({ content: `${sub} ${target} ${amount}`, flags: MessageFlags.Ephemeral });
    });
    const body = { guild_id: guilds.station, channel_id: channels.general, user_id: users.ada };
    const set = await control(sandbox, 'POST', '/commands', {
      ...body,
      name: 'xp set',
      options: { member: users.nia, amount: '1200' },
    });
    expect(set.body).toMatchObject({ responded: true, response: { data: { content: 'set nia 1200' } } });
    const reset = await control(sandbox, 'POST', '/commands', { ...body, name: 'xp reset' });
    expect(reset.body).toMatchObject({ response: { data: { content: 'reset nobody 0' } } });
    expect((await control(sandbox, 'POST', '/commands', { ...body, name: 'xp set' })).status).toBe(400);
    expect((await control(sandbox, 'POST', '/commands', { ...body, name: 'xp nope' })).status).toBe(404);
  });
});
