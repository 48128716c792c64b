import { SANDBOX_BOT_TOKEN, SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

const { users, guilds, channels } = SANDBOX_IDS;
let stack: Stack;
let page: Page;
const roleIds: Record<'red' | 'blue' | 'gamer', string> = { red: '', blue: '', gamer: '' };

/** A role the server's admins made themselves (through Discord, here the sandbox's REST). */
async function createRole(name: string, color: number): Promise<string> {
  const response = await fetch(`${stack.sandbox.apiBase}/v10/guilds/${guilds.station}/roles`, {
    method: 'POST',
    headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, color }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
  roleIds.red = await createRole('Red', 0xe74c3c);
  roleIds.blue = await createRole('Blue', 0x3498db);
  roleIds.gamer = await createRole('Gamer', 0x9b59b6);
  page = await stack.browser.newPage();
  await signInAs(page, stack.dashboardUrl, users.ada);
});
afterAll(async () => {
  await stack?.close();
});

const station = () => stack.sandbox.state().guilds.find((g) => g.id === guilds.station);
const rolesOf = (userId: string) => station()?.members.find((m) => m.user_id === userId)?.roles ?? [];
const panels = () =>
  (station()?.channels.find((c) => c.id === channels.roles)?.messages ?? []).filter(
    (m) => m.author.id === SANDBOX_IDS.bot,
  );

async function fillRow(
  list: 'color_roles' | 'personality_roles',
  index: number,
  emoji: string,
  roleId: string,
) {
  await page.locator(`#${list}-${index}-emoji`).fill(emoji);
  await page.locator(`#${list}-${index}-role_id`).fill(roleId);
}

describe('reaction roles end to end', () => {
  it('an admin saves both lists and their channels, then posts the panels the preview showed', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/reaction-roles?guild=${guilds.station}`);
    const colors = page.getByRole('region', { name: 'Color Roles' });
    const personality = page.getByRole('region', { name: 'Personality Roles' });
    await colors.getByRole('button', { name: 'Add row' }).click();
    await colors.getByRole('button', { name: 'Add row' }).click();
    await personality.getByRole('button', { name: 'Add row' }).click();
    await fillRow('color_roles', 0, '🔴', roleIds.red);
    await fillRow('color_roles', 1, '🔵', roleIds.blue);
    await fillRow('personality_roles', 0, `<:rocket:${SANDBOX_IDS.emojis.stationRocket}>`, roleIds.gamer);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();

    for (const [region, title] of [
      [colors, 'Color Roles'],
      [personality, 'Personality Roles'],
    ] as const) {
      await region.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
      await region.getByRole('button', { name: `Save the ${title} channel` }).click();
      await region.getByText('Channel saved').waitFor();
    }
    await page.getByRole('button', { name: 'Post / Update Panels' }).click();
    await page.getByText('Posting the reaction panels: done').waitFor({ timeout: 30_000 });
    await colors.getByText(/Posted in #roles/).waitFor();

    // The bot posted one message a list, reacting with each row's emoji in order.
    const posted = panels();
    expect(posted.map((m) => m.embeds?.[0]?.title)).toEqual(['Color Roles', 'Personality Roles']);
    const reactions = posted.map((m) => (m.reactions ?? []).map((r) => r.emoji.id ?? r.emoji.name));
    expect(reactions).toEqual([['🔴', '🔵'], [SANDBOX_IDS.emojis.stationRocket]]);
    // What the admin previewed is what members got: the same lines, mentions drawn as names.
    const previewed = await colors.locator('.reaction-preview').first().textContent();
    expect(previewed).toContain('Color Roles');
    expect(previewed).toContain('@Red');
    expect(previewed).toContain('@Blue');
    expect(posted[0]?.embeds?.[0]?.description).toBe(`🔴 <@&${roleIds.red}>\n🔵 <@&${roleIds.blue}>`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'reaction-roles-posted-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'reaction-roles-posted-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('a member reacts in the chat view and gets the role; a second color swaps it', async () => {
    const chat = await stack.browser.newPage();
    await chat.goto(
      `${stack.sandbox.url}/chat?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`,
    );
    const reaction = (emoji: string) => chat.locator(`[data-testid="reaction"][data-emoji="${emoji}"]`);
    await reaction('🔴').click();
    await expect.poll(() => rolesOf(users.nia).includes(roleIds.red), { timeout: 10_000 }).toBe(true);
    await reaction(SANDBOX_IDS.emojis.stationRocket).click();
    await expect.poll(() => rolesOf(users.nia).includes(roleIds.gamer), { timeout: 10_000 }).toBe(true);

    await reaction('🔵').click();
    await expect
      .poll(() => [roleIds.red, roleIds.blue].filter((id) => rolesOf(users.nia).includes(id)), {
        timeout: 10_000,
      })
      .toEqual([roleIds.blue]);
    // The bot took nia's older color reaction away; her personality pick stays.
    await expect.poll(() => reaction('🔴').getAttribute('aria-pressed'), { timeout: 10_000 }).toBe('false');
    expect(await reaction('🔵').getAttribute('aria-pressed')).toBe('true');
    expect(rolesOf(users.nia)).toContain(roleIds.gamer);

    // Taking a reaction away takes the role away.
    await reaction(SANDBOX_IDS.emojis.stationRocket).click();
    await expect.poll(() => rolesOf(users.nia).includes(roleIds.gamer), { timeout: 10_000 }).toBe(false);
    await screenshot(chat, 'sandbox-chat-reaction-panel', false);
    await chat.close();
  });

  it('refuses a role above the bot, naming the row, and keeps what was stored', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/reaction-roles?guild=${guilds.station}`);
    const colors = page.getByRole('region', { name: 'Color Roles' });
    await colors.getByRole('button', { name: 'Add row' }).click();
    await fillRow('color_roles', 2, '🟢', SANDBOX_IDS.roles.stationModerators);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /row 3/i }).first().waitFor();
    await page.reload();
    await page.locator('#color_roles-1-emoji').waitFor();
    expect(await page.locator('#color_roles-2-emoji').count()).toBe(0);
  });
});
