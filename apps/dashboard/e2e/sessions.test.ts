import { MESSAGES } from '@spacecadet/contract';
import { levelingSettings } from '@spacecadet/db';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

/**
 * Signed in across tabs and browser restarts, through the API's refresh cookie, and signed out
 * everywhere from one place: a real API, sandbox, dashboard server and Chromium.
 */
const { users, guilds } = SANDBOX_IDS;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
});
afterAll(async () => {
  await stack?.close();
});

/** Every page of the browser that went to Discord's authorize page (the sandbox's), as URLs. */
function watchAuthorize(browser: BrowserContext): string[] {
  const visits: string[] = [];
  browser.on('request', (request) => {
    if (
      request.isNavigationRequest() &&
      request.url().startsWith(`${stack.sandbox.oauthBase}/oauth2/authorize`)
    ) {
      visits.push(request.url());
    }
  });
  return visits;
}

/** The dashboard of Sandbox Station, signed in: its server list and the account menu are there. */
async function signedInDashboard(page: Page): Promise<void> {
  await page.goto(`${stack.dashboardUrl}/dashboard?guild=${guilds.station}`);
  await page.getByRole('navigation', { name: 'Your servers' }).getByRole('link').first().waitFor();
  await page.getByRole('button', { name: /Account/ }).waitFor();
}

describe('signed in across tabs', () => {
  it('a second tab is signed in without the OAuth page, and so is the browser after a restart', async () => {
    const first = await stack.browser.newPage();
    await signInAs(first, stack.dashboardUrl, users.ada);
    const authorize = watchAuthorize(stack.browser);

    const second = await stack.browser.newPage();
    await signedInDashboard(second);
    expect(await second.evaluate(() => window.sessionStorage.getItem('session_user'))).toContain(users.ada);
    expect(authorize).toEqual([]);

    // Quit and start the browser again on the same profile: the cookie outlives it.
    await stack.restartBrowser();
    const afterRestart = watchAuthorize(stack.browser);
    const page = await stack.browser.newPage();
    await signedInDashboard(page);
    expect(await page.evaluate(() => window.sessionStorage.getItem('session_user'))).toContain(users.ada);
    expect(afterRestart).toEqual([]);

    // A members-only leaderboard opened in a new tab is signed in too: Ada sees the board.
    await stack.database.db
      .insert(levelingSettings)
      .values({ guildId: guilds.station, leaderboardVisibility: 'members' })
      .onConflictDoUpdate({ target: levelingSettings.guildId, set: { leaderboardVisibility: 'members' } });
    const board = await stack.browser.newPage();
    await board.goto(`${stack.dashboardUrl}/leaderboard/${guilds.station}`);
    await board.getByRole('heading', { name: 'Sandbox Station' }).waitFor();
    expect(await board.getByText('Sign in to see this leaderboard').count()).toBe(0);
    expect(afterRestart).toEqual([]);
    await board.close();
    await page.close();
  });

  it('shows the account menu at 1280 and 390 px', async () => {
    const page = await stack.browser.newPage();
    await signInAs(page, stack.dashboardUrl, users.ada);
    await signedInDashboard(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.getByRole('button', { name: /Account/ }).click();
      const menu = page.getByRole('menu', { name: 'Account' });
      await menu.waitFor();
      // The menu is inside the window, not cut off at either side.
      const box = await menu.boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      await screenshot(page, `account-menu-${width}`, false);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
    }
    await page.close();
  });

  it('signing out everywhere signs out the other tabs at once and another browser on its next call', async () => {
    const here = await stack.browser.newPage();
    await signInAs(here, stack.dashboardUrl, users.mo);
    const otherTab = await stack.browser.newPage();
    await signedInDashboard(otherTab);

    const laptop = await stack.otherBrowser();
    const elsewhere = await laptop.newPage();
    await signInAs(elsewhere, stack.dashboardUrl, users.mo);
    await signedInDashboard(elsewhere);
    // Someone else signed in elsewhere stays signed in.
    const someoneElse = await (await stack.otherBrowser()).newPage();
    await signInAs(someoneElse, stack.dashboardUrl, users.rex);

    await here.getByRole('button', { name: /Account/ }).click();
    await here.getByRole('menuitem', { name: /^Sign out everywhere/ }).click();
    await here.waitForURL((url) => url.pathname === '/');

    // The other tab of this browser hears it at once.
    await otherTab.getByText(MESSAGES.signInRequired).waitFor();
    // The other browser still shows the page it had; its next call is refused (its session ended,
    // as a logged-out one answers: session_expired), and so is its cookie: Session Expired.
    await elsewhere.getByRole('button', { name: /Account/ }).waitFor();
    await elsewhere.reload();
    await elsewhere.getByText('Session Expired').waitFor();
    await elsewhere.getByRole('button', { name: 'Re-Authorize' }).waitFor();
    // A new tab of this browser does not sign in again either.
    const fresh = await stack.browser.newPage();
    await fresh.goto(`${stack.dashboardUrl}/dashboard`);
    await fresh.getByText(MESSAGES.signInRequired).waitFor();

    await someoneElse.reload();
    await someoneElse.getByRole('navigation', { name: 'Your servers' }).waitFor();
    await someoneElse.getByRole('button', { name: /Account/ }).waitFor();
    for (const page of [here, otherTab, elsewhere, fresh, someoneElse]) await page.close();
  });
});

// Last in the file: every page the tests above opened ran under the dashboard's policy.
describe('content security policy', () => {
  it('was never violated', () => {
    expect(stack.cspViolations).toEqual([]);
  });
});
