import { memberXp } from '@spacecadet/db';
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
  await stack.database.db.insert(memberXp).values([
    { guildId: guilds.station, userId: users.ada, xp: 1_255, username: 'ada', avatar: null },
    { guildId: guilds.station, userId: users.mo, xp: 255, username: 'mo', avatar: null },
  ]);
  page = await stack.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, stack.dashboardUrl, users.ada);
});
afterAll(async () => {
  await stack?.close();
});

const url = (path: string) => `${stack.dashboardUrl}${path}?guild=${guilds.station}`;
const rows = () => page.getByRole('list', { name: 'Top members' }).getByRole('listitem');
const entries = () => page.getByRole('list', { name: 'Changes, newest first' }).getByRole('listitem');

describe('history end to end', () => {
  it('reset leveling and undo it from the History page', async () => {
    await page.goto(url('/dashboard/leveling/leaderboard'));
    await rows().first().waitFor();
    expect(await rows().nth(0).locator('.leaderboard-xp').textContent()).toBe('1,255 XP');

    // A raw config edit with a long value: its diff must wrap, not widen the page at 390 px.
    await page.goto(url('/dashboard'));
    const editor = page.getByLabel('Configuration JSON');
    await expect.poll(() => editor.isEnabled(), { timeout: 15_000 }).toBe(true);
    const welcome = Array.from({ length: 30 }, (_, i) => ({
      channel: `30000000000000${1000 + i}`,
      text: `Welcome aboard, cadet ${i}!`,
    }));
    await editor.fill(JSON.stringify({ color_roles_mode: 'basic', welcome }));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/^Saved/).waitFor();

    // A settings change next: History shows its diff.
    await page.goto(url('/dashboard/leveling/settings'));
    await page.getByLabel('Most XP per message').fill('25');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();

    // Reset Leveling: the confirmation counts whose XP goes, from the API's preview.
    await page.getByRole('button', { name: 'Reset Leveling' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset leveling?' });
    await dialog.getByText('Remove the XP of 2 members.').waitFor();
    await dialog.getByText('You can undo this from History for 7 days.').waitFor();
    await screenshot(page, 'history-reset-dialog-1280', false);
    await dialog.getByRole('button', { name: 'Reset Leveling' }).click();
    await page.getByText('All leveling data deleted').waitFor();

    await page.goto(url('/dashboard/leveling/leaderboard'));
    await page.getByRole('heading', { name: 'Nobody has earned XP in this server yet.' }).waitFor();

    // History, from the sidebar: the reset on top, the settings change under it with its diff.
    await page.getByRole('list', { name: 'Server pages' }).getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
    await entries().first().waitFor();
    const reset = entries().filter({ hasText: 'Reset leveling: deleted the XP of 2 members' });
    expect(await entries().first().textContent()).toContain('Reset leveling');
    const settings = entries()
      .filter({ has: page.locator('dl.history-diff') })
      .first();
    expect(await settings.locator('dl.history-diff').textContent()).toMatch(/XP per message.*→/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'history-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'history-390');
    // Nothing wider than the screen: the long config value wraps inside its entry.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });

    await reset.getByRole('button', { name: /^Undo: / }).click();
    const undo = page.getByRole('alertdialog', { name: 'Undo this change?' });
    await undo.getByRole('button', { name: 'Undo', exact: true }).click();
    // The rows are back at once; the reward roles follow by Sync Roles' job.
    const progress = page.getByRole('region', { name: 'Undo progress' });
    await progress.getByText('Syncing roles: done').waitFor({ timeout: 30_000 });
    await reset.getByText('Undone', { exact: true }).waitFor();
    await reset.getByRole('link', { name: /^Undone by ada/ }).waitFor();
    expect(await entries().first().textContent()).toMatch(/Undid|Undo/i);
    expect(await reset.getByRole('button', { name: /^Undo: / }).count()).toBe(0);
    await screenshot(page, 'history-undone-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'history-undone-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.goto(url('/dashboard/leveling/leaderboard'));
    await rows().first().waitFor();
    expect(await rows().count()).toBe(2);
    expect(await rows().nth(0).locator('.leaderboard-xp').textContent()).toBe('1,255 XP');
    expect(await rows().nth(1).locator('.leaderboard-xp').textContent()).toBe('255 XP');
  });
});
