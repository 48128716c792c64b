import { join } from 'node:path';
import { guildDepartures, levelingRoles, memberXp } from '@spacecadet/db';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { waitFor } from '@spacecadet/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { SCREENSHOT_DIR, type Stack, startStack } from './stack.ts';

/**
 * The server overview's setup checklist and "This server's data" in the built dashboard against
 * the real API, worker and sandbox: the role-order line turns ✓ from the gateway's role event
 * (the worker drops the API's copies, the card's polling reads Discord again) with no reload,
 * dismissal holds across reloads, and the owner's data deletion asks for the server's name.
 */
const { users, guilds, roles } = SANDBOX_IDS;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
});
afterAll(async () => {
  await stack?.close();
});

async function sandbox(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${stack.sandbox.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

/** The descendants of `selector` that stick out of its right edge (what a narrow screen clips). */
const sticksOut = (page: Page, selector: string) =>
  page.$eval(selector, (box) => {
    const right = box.getBoundingClientRect().right;
    return [...box.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > right + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
  });

const roleLine = (page: Page) => page.locator('.setup-line[data-line="role_order"]');

async function openOverview(page: Page): Promise<void> {
  await page.goto(`${stack.dashboardUrl}/dashboard?guild=${guilds.station}`);
  await page.getByRole('heading', { name: 'Sandbox Station', level: 1 }).waitFor();
}

describe('the setup checklist', () => {
  it('shows ✗ while a role the bot gives is above its role, turns ✓ live when it moves, and stays dismissed', async () => {
    // Leveling hands out Moderators (position 4), above the bot's role (position 3).
    await stack.database.db.insert(levelingRoles).values({
      guildId: guilds.station,
      roleName: 'Moderators',
      levelRequired: 5,
      roleId: roles.stationModerators,
    });
    const page = await stack.browser.newPage();
    await signInAs(page, stack.dashboardUrl, users.ada);
    await openOverview(page);
    const line = roleLine(page);
    await line.and(page.locator('[data-status="todo"]')).waitFor();
    await expect(line.locator('.setup-mark').textContent()).resolves.toBe('✗');
    const picture = line.locator('figure.role-order');
    await picture.locator('li.role-blocked', { hasText: 'Moderators' }).waitFor();
    await picture.locator('li.role-bot', { hasText: 'Space Cadet' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'overview-setup-todo-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'overview-setup-todo-390');
    await page
      .locator('.setup-card')
      .screenshot({ path: join(SCREENSHOT_DIR, 'overview-setup-card-390.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await sticksOut(page, '.setup-card')).toEqual([]);
    expect(await sticksOut(page, '.setup-line[data-line="role_order"]')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // An admin drags the bot's role above Moderators in Discord: no reload here.
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    await sandbox('PATCH', `/_sandbox/guilds/${guilds.station}/roles/${roles.stationBot}`, { position: 5 });
    await line.and(page.locator('[data-status="ok"]')).waitFor({ timeout: 20_000 });
    await expect(line.locator('.setup-mark').textContent()).resolves.toBe('✓');
    expect(await line.locator('figure.role-order').count()).toBe(0);
    expect(loads).toEqual([]);

    await page.getByRole('button', { name: 'Dismiss' }).click();
    const show = page.getByRole('button', { name: 'Show the setup checklist' });
    await show.waitFor();
    expect(await page.locator('.setup-card').count()).toBe(0);
    await screenshot(page, 'overview-setup-dismissed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.server-header').scrollIntoViewIfNeeded();
    await screenshot(page, 'overview-setup-dismissed-390', false);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await show.waitFor();
    expect(await page.locator('.setup-card').count()).toBe(0);
    await show.click();
    await page.getByRole('heading', { name: 'Setup checklist' }).waitFor();
    await roleLine(page).and(page.locator('[data-status="ok"]')).waitFor();
    expect(stack.cspViolations).toEqual([]);
    await page.close();
  });
});

describe("this server's data", () => {
  it('is not shown to an admin who is not the owner', async () => {
    const page = await stack.browser.newPage();
    // Mo holds Managers (Manage Server) in Sandbox Station, owned by Ada.
    await signInAs(page, stack.dashboardUrl, users.mo);
    const answered = page.waitForResponse(
      (res) => res.request().method() === 'GET' && res.url().endsWith(`/api/guilds/${guilds.station}/data`),
    );
    await openOverview(page);
    // The API answers Mo (not the owner); the section then renders nothing.
    const summary = (await (await answered).json()) as { owner: boolean };
    expect(summary.owner).toBe(false);
    await page.getByRole('heading', { name: 'Setup checklist' }).waitFor();
    await page.getByText('Checking what is stored for this server…').waitFor({ state: 'detached' });
    expect(await page.getByRole('heading', { name: 'This server’s data' }).count()).toBe(0);
    await page.close();
  });

  it('the owner sees the counts; a wrong name sends nothing, the right one deletes', async () => {
    await stack.database.db.insert(memberXp).values([
      { guildId: guilds.station, userId: users.nia, xp: 900, level: 4, messageCount: 40, username: 'nia' },
      { guildId: guilds.station, userId: users.mo, xp: 300, level: 2, messageCount: 12, username: 'mo' },
    ]);
    const page = await stack.browser.newPage();
    await signInAs(page, stack.dashboardUrl, users.ada);
    await openOverview(page);
    const section = page.locator('section.guild-data');
    await section.getByRole('heading', { name: 'This server’s data' }).waitFor();
    await section.getByText('the XP of 2 members').waitFor();

    const deletes: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'DELETE' && req.url().endsWith(`/api/guilds/${guilds.station}/data`)) {
        deletes.push(req.postData() ?? '');
      }
    });
    await section.getByRole('button', { name: 'Delete this server’s data…' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('the XP of 2 members').waitFor();
    const field = dialog.getByLabel(/Type the server's name/);
    await field.fill('Sandbox Statio');
    await dialog.getByRole('button', { name: "Delete this server's data" }).click();
    await dialog.getByText("That is not the server's name.").waitFor();
    expect(deletes).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'overview-data-confirm-1280', false);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'overview-data-confirm-390', false);
    await page.setViewportSize({ width: 1280, height: 900 });

    await field.fill('Sandbox Station');
    await dialog.getByRole('button', { name: "Delete this server's data" }).click();
    await section.getByText('Everything Space Cadet stored for Sandbox Station is deleted.').waitFor({
      timeout: 30_000,
    });
    expect(deletes.map((body) => JSON.parse(body))).toEqual([{ confirm: 'Sandbox Station' }]);
    await section
      .getByText(/^Deleted: 5 stored rows, \d+ cached keys?, 0 schedules and 0 queued jobs\.$/)
      .waitFor();
    await screenshot(page, 'overview-data-done-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await section.screenshot({ path: join(SCREENSHOT_DIR, 'overview-data-done-390.png') });
    const left = await stack.database.db.execute<{ n: number }>(
      `SELECT count(*)::int AS n FROM member_xp WHERE guild_id = '${guilds.station}'`,
    );
    expect(left.rows[0]?.n).toBe(0);
    await waitFor('the leveling roles of the server to be deleted', async () => {
      const roleRows = await stack.database.db.execute<{ n: number }>(
        `SELECT count(*)::int AS n FROM leveling_roles WHERE guild_id = '${guilds.station}'`,
      );
      return roleRows.rows[0]?.n === 0;
    });
    await page.close();
  });
});

describe('a server the bot was removed from', () => {
  it('tells its owner until when the data is kept, on the invite prompt', async () => {
    // Rex owns Other Orbit; the bot leaves it (GUILD_DELETE): the worker records the departure.
    await sandbox('DELETE', `/_sandbox/guilds/${guilds.orbit}/members/${SANDBOX_IDS.bot}`);
    const departure = await waitFor('the departure of Other Orbit to be recorded', async () => {
      const [row] = await stack.database.db.select().from(guildDepartures);
      return row?.guildId === guilds.orbit ? row : undefined;
    });
    const page = await stack.browser.newPage();
    await signInAs(page, stack.dashboardUrl, users.rex);
    await page.goto(`${stack.dashboardUrl}/dashboard?guild=${guilds.orbit}`);
    await page.getByRole('heading', { name: 'Space Cadet isn’t in Other Orbit yet' }).waitFor();
    const until = await page.evaluate(
      (iso) =>
        new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }),
      departure.purgeAfter.toISOString(),
    );
    await page
      .getByText(`Its data is kept until ${until}: re-inviting the bot restores everything.`)
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'overview-departed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'overview-departed-390');
    await page.close();
  });
});
