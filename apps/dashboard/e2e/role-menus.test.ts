import { join } from 'node:path';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { SCREENSHOT_DIR, type Stack, startStack } from './stack.ts';

const { users, guilds, channels } = SANDBOX_IDS;
let stack: Stack;
let page: Page;
const roleIds: Record<'red' | 'blue', string> = { red: '', blue: '' };

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
  roleIds.red = await createRole('Red Team', 0xe74c3c);
  roleIds.blue = await createRole('Blue Team', 0x3498db);
  page = await stack.browser.newPage();
  await signInAs(page, stack.dashboardUrl, users.ada);
});
afterAll(async () => {
  await stack?.close();
});

const station = () => stack.sandbox.state().guilds.find((g) => g.id === guilds.station);
const rolesOf = (userId: string) => station()?.members.find((m) => m.user_id === userId)?.roles ?? [];
const menuMessages = () =>
  (station()?.channels.find((c) => c.id === channels.roles)?.messages ?? []).filter(
    (m) => m.author.id === SANDBOX_IDS.bot,
  );
/** The whole page in one viewport as tall as it is (a full-page shot repeats the fixed header). */
async function wholePageShot(name: string) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height });
  await screenshot(page, name, false);
  await page.setViewportSize({ width: 1280, height: 900 });
}
const pageUrl = () => `${stack.dashboardUrl}/dashboard/custom-reaction-roles?guild=${guilds.station}`;

describe('role menus end to end', () => {
  it('an admin builds a buttons menu on two roles, saves it and posts what the preview showed', async () => {
    await page.goto(pageUrl());
    await page.getByRole('heading', { name: 'No role menus yet' }).waitFor();
    await page.getByRole('button', { name: 'Create a menu' }).click();

    await page.locator('#menu-title').fill('Pick a team');
    await page.locator('#menu-description').fill('Teams play on **Fridays**. Pick one!');
    await page.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
    await page.getByLabel(/^Unique/).check();
    await page.locator('#option-0-role_id').fill(roleIds.red);
    await page.locator('#option-0-label').fill('Red');
    await page.locator('#option-0-emoji').fill('🔴');
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.locator('#option-1-role_id').fill(roleIds.blue);
    await page.locator('#option-1-label').fill('Blue');
    await page.locator('#option-1-emoji').fill('🔵');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Fridays').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('menu')).toMatch(/^[0-9a-f-]{36}$/);

    await page.getByRole('button', { name: 'Post in Discord' }).click();
    await page.getByText('Posting the role menu: done').waitFor({ timeout: 30_000 });

    // The bot posted one message: the embed and a row of the two buttons, as previewed.
    const [posted, ...more] = menuMessages();
    expect(more).toEqual([]);
    expect(posted?.embeds?.[0]?.title).toBe('Pick a team');
    expect(posted?.embeds?.[0]?.description).toBe('Teams play on **Fridays**. Pick one!');
    const buttons = (posted?.components ?? []).map((row) =>
      'components' in row ? row.components.map((c) => ('label' in c ? c.label : null)) : [],
    );
    expect(buttons).toEqual([['Red', 'Blue']]);
    const previewed = await preview
      .getByRole('region', { name: 'Menu buttons' })
      .getByRole('list')
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('.discord-button-label')].map((b) => b.textContent)),
      );
    expect(previewed).toEqual(buttons);
    expect(await preview.getByTestId('preview-embed').locator('.discord-embed-footer').textContent()).toBe(
      posted?.embeds?.[0]?.footer?.text,
    );

    await page.getByText('Posted in #roles').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await wholePageShot('role-menus-editor-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'role-menus-editor-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: '← All menus' }).click();
    const item = page.getByRole('region', { name: 'Pick a team' });
    await item.getByText('Posted in #roles').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'role-menus-list-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'role-menus-list-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The other styles, previewed from the same layout (not saved).
    await item.getByRole('button', { name: 'Edit Pick a team' }).click();
    await page.getByLabel(/^Select menu/).check();
    await preview.getByTestId('preview-select').waitFor();
    await preview.screenshot({ path: join(SCREENSHOT_DIR, 'role-menus-preview-select.png') });
    await page.getByLabel(/^Reactions/).check();
    await preview.getByRole('list', { name: 'Reactions' }).waitFor();
    await preview.screenshot({ path: join(SCREENSHOT_DIR, 'role-menus-preview-reactions.png') });
  });

  it('a member clicks a button in the chat view and gets the role; another swaps it', async () => {
    const chat = await stack.browser.newPage();
    await chat.goto(
      `${stack.sandbox.url}/chat?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`,
    );
    const button = (label: string) =>
      chat.locator('[data-testid="component-button"]').filter({ hasText: label });
    await button('Red').click();
    await expect.poll(() => rolesOf(users.nia).includes(roleIds.red), { timeout: 10_000 }).toBe(true);
    // The bot answers privately with what she has now.
    await chat.getByTestId('ephemeral-message').filter({ hasText: 'You now have' }).first().waitFor();

    await button('Blue').click();
    await expect
      .poll(() => [roleIds.red, roleIds.blue].filter((id) => rolesOf(users.nia).includes(id)), {
        timeout: 10_000,
      })
      .toEqual([roleIds.blue]);
    await screenshot(chat, 'sandbox-chat-role-menu', false);
    await chat.close();
  });

  it("places the API's refusal of a role above the bot at that option, keeping the edits", async () => {
    await page.goto(`${pageUrl()}&menu=new`);
    await page.locator('#menu-title').fill('Staff');
    await page.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
    await page.locator('#option-0-role_id').fill(roleIds.red);
    await page.locator('#option-0-label').fill('Red');
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.locator('#option-1-role_id').fill(SANDBOX_IDS.roles.stationModerators);
    await page.locator('#option-1-label').fill('Moderators');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const atField = page.locator('#option-1-role_id-problem');
    await atField.waitFor();
    expect(await atField.textContent()).toMatch(/^Option 2/);
    expect(await page.locator('#option-1-role_id').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#option-0-role_id').getAttribute('aria-invalid')).toBeNull();
    await page
      .locator('.alert-error.dismissible')
      .filter({ hasText: /Option 2/ })
      .waitFor();
    expect(await page.locator('#menu-title').inputValue()).toBe('Staff');
    await wholePageShot('role-menus-refused-1280');
    await page.goto(pageUrl());
    await page.getByRole('region', { name: 'Pick a team' }).waitFor();
    expect(await page.getByRole('region', { name: 'Staff' }).count()).toBe(0);
  });

  it('deletes the menu after asking, and the posted message goes', async () => {
    await page.goto(pageUrl());
    const item = page.getByRole('region', { name: 'Pick a team' });
    await item.getByText('Posted in #roles').waitFor();
    await item.getByRole('button', { name: 'Delete Pick a team' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this menu?' });
    const asked = (await dialog.locator('p').first().textContent()) ?? '';
    await dialog.getByText('You can undo this from History.').waitFor();
    await dialog.getByRole('button', { name: 'Delete menu' }).click();
    await page.getByRole('heading', { name: 'No role menus yet' }).waitFor();
    expect(asked).toMatch(/posted message will be deleted.*Members keep the roles/);
    await expect.poll(() => menuMessages().length, { timeout: 30_000 }).toBe(0);
    // Members keep what they picked.
    expect(rolesOf(users.nia)).toContain(roleIds.blue);
  });
});
