import { chromiumLaunchOptions } from '@spacecadet/testing';
import { type Client, DiscordAPIError, Events, type GuildMember } from 'discord.js';
import { type APIGuildOnboarding, Routes } from 'discord-api-types/v10';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox } from '../src/index.ts';
import { readyClient, waitFor } from './discordjs-helpers.ts';
import { bot, control } from './helpers.ts';
import {
  KEPT_OPTION_ID,
  PROMPT_ID,
  ONBOARDING_PATH as path,
  question,
  startManaging,
} from './onboarding-helpers.ts';

const { guilds, channels, users, roles } = SANDBOX_IDS;

let sandbox: Sandbox;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.destroy();
  await sandbox.close();
});

async function start(): Promise<Sandbox> {
  sandbox = await startManaging();
  return sandbox;
}

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
      ...chromiumLaunchOptions(),
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
