import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

const { users, guilds } = SANDBOX_IDS;
let stack: Stack;
let page: Page;

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
  page = await stack.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, stack.dashboardUrl, users.ada);
});
afterAll(async () => {
  await stack?.close();
});

const leaderboardUrl = () => `${stack.dashboardUrl}/dashboard/leveling/leaderboard?guild=${guilds.station}`;
const publicUrl = () => `${stack.dashboardUrl}/leaderboard/${guilds.station}`;
const rows = () => page.getByRole('list', { name: 'Top members' }).getByRole('listitem');

/** The CSV an admin brings from elsewhere: three members, a row with a bad id, one with bad XP. */
const CSV = [
  'user_id,xp,username',
  `${users.ada},1255,ada`,
  `${users.mo},255,mo`,
  'not-an-id,40,ghost',
  `${users.nia},-7,nia`,
  `${users.nia},100,nia`,
].join('\n');

/** Sets who may see the public page, through the settings page as an admin does. */
async function setVisibility(label: 'Off' | 'Members' | 'Anyone') {
  await page.goto(`${stack.dashboardUrl}/dashboard/leveling/settings?guild=${guilds.station}`);
  await page.getByRole('radio', { name: new RegExp(`^${label}`) }).check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Saved', { exact: true }).waitFor();
}

/**
 * A new tab of a browser with no sign-in: the refresh cookie gone (tabs of the same browser
 * otherwise share the sign-in), the admin's tab keeps its own session.
 */
async function signedOutTab(): Promise<Page> {
  await stack.browser.clearCookies();
  const tab = await stack.browser.newPage();
  await tab.setViewportSize({ width: 390, height: 844 });
  return tab;
}

describe('XP import end to end', () => {
  it('previews the file, imports it, lists the skipped rows and ranks the members', async () => {
    await page.goto(leaderboardUrl());
    await page.getByRole('heading', { name: 'Nobody has earned XP in this server yet.' }).waitFor();
    await page.locator('#xp-import-file').setInputFiles({
      name: 'xp.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    await page.getByText('CSV, 5 rows (2 rows will be skipped):').waitFor();
    const preview = page.getByRole('table');
    expect(await preview.getByRole('row').count()).toBe(6);
    await preview.getByText('Will be skipped: user_id is not a Discord id').waitFor();
    await screenshot(page, 'leveling-import-preview-1280');
    await page.getByRole('radio', { name: /^Replace:/ }).check();
    await page.getByRole('button', { name: 'Import 5 rows' }).click();

    await page.getByText('Imported 3 members').waitFor();
    const skipped = page.getByRole('list', { name: 'Skipped rows' }).getByRole('listitem');
    expect(await skipped.allTextContents()).toEqual([
      expect.stringMatching(/^Row 4: /),
      expect.stringMatching(/^Row 5: /),
    ]);
    // The board reloads with the imported XP.
    await rows().first().waitFor();
    expect(await rows().count()).toBe(3);
    expect(await rows().nth(0).locator('.leaderboard-xp').textContent()).toBe('1,255 XP');
    expect(await rows().nth(2).locator('.leaderboard-xp').textContent()).toBe('100 XP');
    // The rewards job follows, shown as other jobs are.
    await page
      .locator('.job-status')
      .getByText(/: done$/)
      .waitFor({ timeout: 30_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'leveling-import-result-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'leveling-import-result-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("sets a member's XP from the row menu", async () => {
    await page.goto(leaderboardUrl());
    await page.getByRole('button', { name: 'Actions for mo' }).click();
    const panel = page.getByRole('group', { name: 'XP of mo' });
    // Reset XP asks in the dialog over the page; Cancel (where the focus starts) keeps the menu.
    await panel.getByRole('button', { name: 'Reset XP' }).click();
    const ask = page.getByRole('alertdialog', { name: "Reset mo's XP?" });
    await ask.getByText('You can undo this from History.').waitFor();
    expect(
      await ask.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await screenshot(page, 'leveling-row-menu-reset-1280', false);
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    expect(
      await panel.getByRole('button', { name: 'Reset XP' }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await panel.getByLabel('Set XP').fill('5000');
    await screenshot(page, 'leveling-row-menu-1280', false);
    await panel.getByRole('button', { name: 'Set XP', exact: true }).click();
    await rows().nth(0).getByText('5,000 XP').waitFor();
    expect(await rows().nth(0).locator('.leaderboard-name').textContent()).toBe('Mo');
  });
});

describe('public leaderboard end to end', () => {
  // In this order: the API lets browsers keep an "anyone" page for a while (Cache-Control), so
  // a tab that saw it could still show it after the visibility changed.
  it('members: asks a signed-out visitor to sign in, and shows the board to a member after', async () => {
    await setVisibility('Members');
    const tab = await signedOutTab();
    await tab.goto(publicUrl());
    await tab.getByRole('heading', { name: 'Sign in to see this leaderboard' }).waitFor();
    await screenshot(tab, 'public-leaderboard-sign-in-390');
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click();
    await tab.locator(`a.pick[data-user-id="${users.nia}"]`).click();
    await tab.waitForURL((url) => url.pathname === `/leaderboard/${guilds.station}`, { timeout: 15_000 });
    await tab.getByRole('heading', { name: 'Sandbox Station', level: 1 }).waitFor();
    expect(await tab.getByRole('list', { name: 'Ranked members' }).getByRole('listitem').count()).toBe(3);
    await tab.close();
  });

  it('off: not public', async () => {
    await setVisibility('Off');
    const tab = await signedOutTab();
    await tab.goto(publicUrl());
    await tab.getByRole('heading', { name: 'This leaderboard is not public' }).waitFor();
    await screenshot(tab, 'public-leaderboard-off-390');
    await tab.close();
  });

  it('anyone: visible signed out, with names, levels and avatars', async () => {
    await setVisibility('Anyone');
    const tab = await signedOutTab();
    await tab.goto(publicUrl());
    await tab.getByRole('heading', { name: 'Sandbox Station', level: 1 }).waitFor();
    const ranked = tab.getByRole('list', { name: 'Ranked members' }).getByRole('listitem');
    expect(await ranked.count()).toBe(3);
    expect(await ranked.first().textContent()).toContain('Mo');
    const avatar = ranked.first().locator('img');
    await expect
      .poll(() => avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(tab)).toEqual([]);
    await screenshot(tab, 'public-leaderboard-390');
    await tab.setViewportSize({ width: 1280, height: 900 });
    await screenshot(tab, 'public-leaderboard-1280');
    // A period: the imported XP was earned before this week (no daily rows), and the link keeps it.
    const periods = tab.getByRole('group', { name: 'Period' });
    await periods.getByRole('button', { name: 'This week' }).click();
    await tab.getByText('Nobody has earned XP this week yet.').waitFor();
    expect(new URL(tab.url()).searchParams.get('period')).toBe('week');
    await tab.setViewportSize({ width: 375, height: 812 });
    expect(
      await tab.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(tab, 'public-leaderboard-week-375');
    await tab.close();
  });
});

describe('settings and boosts screenshots', () => {
  it('draws the settings page with its new fields at 1280 and 390 px', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/leveling/settings?guild=${guilds.station}`);
    await page.getByTestId('level-up-preview').waitFor();
    await page.getByRole('switch', { name: /Leveling/ }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'leveling-settings-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'leveling-settings-390');
    await page.goto(`${stack.dashboardUrl}/dashboard/leveling/boosts?guild=${guilds.station}`);
    await page.getByLabel('Applies to').selectOption('channel');
    await screenshot(page, 'leveling-boosts-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'leveling-boosts-1280');
  });
});
