import { readFile } from 'node:fs/promises';
import type { MemberDataExport } from '@spacecadet/contract';
import { memberXp } from '@spacecadet/db';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { freePort } from '@spacecadet/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadDashboardEnv } from '../server/env.ts';
import { type DashboardServer, startDashboardServer } from '../server/server.ts';
import { NOT_NAMED } from '../src/operator.tsx';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

/**
 * A member's own data and the operator's links in the built dashboard, served by the real
 * dashboard server against the real API: the pages without the operator variables and with them
 * (read by the server's env loader, served in /config.js), and Your data's download and delete.
 */
const { users, guilds } = SANDBOX_IDS;
let stack: Stack;
let named: DashboardServer;
let namedUrl: string;

const OPERATOR_ENV = {
  SUPPORT_URL: 'https://discord.gg/example-support',
  COMMUNITY_URL: 'https://discord.gg/example-community',
  PRIVACY_CONTACT: 'privacy@example.org',
  OPERATOR_NAME: 'Example Bots Ltd',
};

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
  const port = await freePort();
  const env = loadDashboardEnv({
    ...OPERATOR_ENV,
    PUBLIC_API_URL: stack.apiUrl,
    DISCORD_CLIENT_ID: SANDBOX_IDS.app,
    DISCORD_OAUTH_BASE: stack.sandbox.oauthBase,
  });
  named = await startDashboardServer({
    port,
    host: '127.0.0.1',
    distDir: inject('distDir'),
    config: env.config,
  });
  namedUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await named?.close();
  await stack?.close();
});

async function newPage(): Promise<Page> {
  return stack.browser.newPage();
}

const linkTargets = (page: Page) =>
  page.$$eval('a', (links) => links.map((a) => a.getAttribute('href') ?? ''));

describe("the operator's links", () => {
  it('unset: the landing, Terms and Privacy say this deployment has not named them, linking nowhere', async () => {
    const page = await newPage();
    await page.goto(`${stack.dashboardUrl}/`);
    await page.getByText(NOT_NAMED.community).waitFor();
    await page.getByText(NOT_NAMED.support).waitFor();
    expect((await linkTargets(page)).filter((href) => href.includes('discord.gg'))).toEqual([]);
    await page.goto(`${stack.dashboardUrl}/terms`);
    await page.getByText(NOT_NAMED.operator).waitFor();
    await page.goto(`${stack.dashboardUrl}/privacy`);
    await page.getByText(NOT_NAMED.privacy).waitFor();
    await expect(page.textContent('main')).resolves.toContain('We do not sell');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'privacy-unnamed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'privacy-unnamed-390');
    expect(stack.cspViolations).toEqual([]);
    await page.close();
  });

  it("set: /config.js carries them and the pages link the operator's servers and contact", async () => {
    const page = await newPage();
    const script = await (await fetch(`${namedUrl}/config.js`)).text();
    for (const value of Object.values(OPERATOR_ENV)) expect(script).toContain(value);
    await page.goto(`${namedUrl}/`);
    const community = page.getByRole('link', { name: /Community server/ });
    expect(await community.getAttribute('href')).toBe(OPERATOR_ENV.COMMUNITY_URL);
    expect(await page.getByRole('link', { name: /Support server/ }).getAttribute('href')).toBe(
      OPERATOR_ENV.SUPPORT_URL,
    );
    await page.goto(`${namedUrl}/terms`);
    await page.getByText(`run by ${OPERATOR_ENV.OPERATOR_NAME}`).waitFor();
    await page.goto(`${namedUrl}/privacy`);
    const contact = page.getByRole('link', { name: OPERATOR_ENV.PRIVACY_CONTACT });
    expect(await contact.getAttribute('href')).toBe(`mailto:${OPERATOR_ENV.PRIVACY_CONTACT}`);
    await screenshot(page, 'privacy-named-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'privacy-named-390');
    await page.close();
  });
});

describe('Your data', () => {
  it('downloads the signed-in member’s data, then deletes it after the confirmation and signs out', async () => {
    const nia = users.nia;
    await stack.database.db.insert(memberXp).values({
      guildId: guilds.station,
      userId: nia,
      xp: 1234,
      level: 5,
      messageCount: 60,
      username: 'nia',
    });
    const page = await newPage();
    await signInAs(page, stack.dashboardUrl, nia);
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: /Your data/ }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await page.getByRole('heading', { name: 'Your data', level: 1 }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'your-data-1280');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^spacecadet-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await readFile((await download.path()) as string, 'utf8')) as MemberDataExport;
    expect(file.user_id).toBe(nia);
    expect(file.servers.map((s) => [s.guild_id, s.xp?.xp])).toEqual([[guilds.station, 1234]]);
    expect(file.sessions.length).toBeGreaterThan(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'your-data-390');
    await page.getByRole('button', { name: 'Delete my data' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your data?' });
    await dialog.getByText('signed out everywhere').waitFor();
    await screenshot(page, 'your-data-confirm-390', false);
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'your-data-confirm-1280', false);
    await dialog.getByRole('button', { name: 'Delete my data' }).click();
    await page.getByRole('heading', { name: 'Your data was deleted' }).waitFor();
    await page.getByText('You are signed out.').waitFor();
    await screenshot(page, 'your-data-done-1280');

    const { db } = stack.database;
    const xpLeft = await db.execute<{ n: number }>(
      `SELECT count(*)::int AS n FROM member_xp WHERE user_id = '${nia}'`,
    );
    expect(xpLeft.rows[0]?.n).toBe(0);
    const live = await db.execute<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions WHERE user_id = '${nia}' AND revoked_at IS NULL`,
    );
    expect(live.rows[0]?.n).toBe(0);
    expect(await page.evaluate(() => window.sessionStorage.length)).toBe(0);
    // Signed out: the page now asks to sign in again.
    await page.reload();
    await page.getByRole('button', { name: 'Sign in with Discord' }).waitFor();
    await page.close();
  });
});
