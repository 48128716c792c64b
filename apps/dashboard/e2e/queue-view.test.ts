import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

const { users } = SANDBOX_IDS;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
});
afterAll(async () => {
  await stack?.close();
});

describe('queue view', () => {
  it('opens bull-board in a new tab for the owner, until she logs out', async () => {
    const page = await stack.browser.newPage();
    await signInAs(page, stack.dashboardUrl, users.ada);
    await page.getByRole('button', { name: 'Queue view' }).waitFor();
    await screenshot(page, 'queue-view-owner-header', false);
    const opened = stack.browser.waitForEvent('page');
    await page.getByRole('button', { name: 'Queue view' }).click();
    const board = await opened;
    await board.waitForURL((url) => url.href.startsWith(`${stack.apiUrl}/admin/queues`));
    // The board's own scripts ran and read the queue through its API with the pass cookie.
    await board.getByText('spacecadet-jobs').first().waitFor({ timeout: 15_000 });
    // The queue's card on the overview, beside its name in the sidebar.
    await board.getByText('spacecadet-jobs').nth(1).waitFor();
    await expect(board.title()).resolves.toBe('Space Cadet jobs');
    await screenshot(board, 'queue-view-board', false);

    // A reload (the ticket is spent by now) still works: the cookie carries it.
    await board.reload();
    await board.getByText('spacecadet-jobs').first().waitFor();

    await page.getByRole('button', { name: /Account/ }).click();
    await page.getByRole('menuitem', { name: /^Sign out This browser/ }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const after = await board.reload();
    expect(after?.status()).toBe(401);
    await page.close();
    await board.close();
  });

  it("keeps every one of the owner's header buttons on a 390 px phone, none cut off", async () => {
    const page = await stack.browser.newPage();
    await signInAs(page, stack.dashboardUrl, users.ada);
    await page.getByRole('button', { name: 'Queue view' }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('button', { name: 'Queue view' }).waitFor();
    const account = page.getByRole('navigation', { name: 'Account' });
    const boxes = await account.locator('a, button').evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { text: element.textContent?.trim() ?? '', left: box.left, right: box.right };
      }),
    );
    expect(boxes.length).toBeGreaterThanOrEqual(4);
    for (const box of boxes) {
      expect(box.left, box.text).toBeGreaterThanOrEqual(0);
      expect(box.right, box.text).toBeLessThanOrEqual(390);
    }
    await screenshot(page, 'queue-view-owner-header-phone', false);
    await page.close();
  });

  it('shows no Queue view button to a manager who is not the owner', async () => {
    const page = await stack.browser.newPage();
    const sessionAnswer = page.waitForResponse(
      (response) => response.url() === `${stack.apiUrl}/api/auth/session` && response.ok(),
    );
    await signInAs(page, stack.dashboardUrl, users.mo);
    await page.getByRole('button', { name: /Account/ }).waitFor();
    // The API has said who this is (is_owner false), and the page has rendered since.
    await (await sessionAnswer).finished();
    await page.getByRole('navigation', { name: 'Your servers' }).getByRole('link').first().waitFor();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    await screenshot(page, 'queue-view-not-owner-header', false);
    expect(await page.getByRole('button', { name: 'Queue view' }).count()).toBe(0);
    await page.close();
  });
});
