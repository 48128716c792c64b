import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

/**
 * The Welcome page in the built dashboard against the real API and sandbox (channels, roles,
 * session, welcome settings): edit, preview, save, read back after a reload, and how it looks at
 * 1280 and 390 px.
 */
const { users, guilds, channels } = SANDBOX_IDS;
let stack: Stack;
let page: Page;
const puts: unknown[] = [];

/** Every PUT of the welcome settings the page sends, as sent. */
function recordPuts(target: Page): void {
  target.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith(`/api/guilds/${guilds.station}/welcome`)) {
      puts.push(request.postDataJSON());
    }
  });
}

/** The descendants of `selector` that stick out of its right edge (what a narrow screen clips). */
const sticksOut = (target: Page, selector: string) =>
  target.$eval(selector, (box) => {
    const right = box.getBoundingClientRect().right;
    return [...box.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > right + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
  });

/**
 * The whole page in one viewport (a full-page capture draws the sticky header halfway down):
 * the window made as tall as the page, then captured.
 */
async function capture(target: Page, width: number, path: string): Promise<void> {
  const height = await target.evaluate(() => document.documentElement.scrollHeight);
  await target.setViewportSize({ width, height });
  await target.screenshot({ path });
}

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
  page = await stack.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  recordPuts(page);
  await signInAs(page, stack.dashboardUrl, users.ada);
});
afterAll(async () => {
  await stack?.close();
});

describe('the Welcome page end to end', () => {
  it('edits the greeting with a live preview, saves it, and fits at 1280 and 390 px', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/welcome?guild=${guilds.station}`);
    await page.getByRole('heading', { name: 'Welcome', level: 1 }).waitFor();
    const message = page.getByLabel('Welcome message', { exact: true });
    await message.waitFor();
    await page.getByRole('checkbox', { name: 'Send a welcome message' }).check();
    await page.getByLabel('Welcome channel').selectOption(channels.general);
    await page.getByRole('radio', { name: /After they finish Onboarding/ }).check();
    await message.fill('Welcome {user} to **{server}**! You picked {answers}.');
    const preview = page.getByTestId('wl-message-preview');
    await expect
      .poll(() => preview.textContent())
      .toBe('Welcome @ada to Sandbox Station! You picked he/him and Gaming.');
    await page.getByRole('checkbox', { name: /Give members back the roles/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    expect(puts.at(-1)).toEqual({
      enabled: true,
      channel_id: channels.general,
      send_when: 'onboarding_complete',
      message: 'Welcome {user} to **{server}**! You picked {answers}.',
      sticky_roles: true,
    });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await capture(page, 1280, '/tmp/welcome-1280.png');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    // Stored by the API: the reloaded page shows what was saved.
    const reloaded = page.getByLabel('Welcome message', { exact: true });
    await reloaded.waitFor();
    expect(await reloaded.inputValue()).toBe('Welcome {user} to **{server}**! You picked {answers}.');
    expect(await page.getByRole('radio', { name: /After they finish Onboarding/ }).isChecked()).toBe(true);
    expect(await sticksOut(page, '.welcome-form')).toEqual([]);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await capture(page, 390, '/tmp/welcome-390.png');
  });
});
