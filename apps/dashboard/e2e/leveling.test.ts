import { levelingBoosts, memberXp } from '@spacecadet/db';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

const { users, guilds, roles, channels } = SANDBOX_IDS;
let stack: Stack;
let page: Page;

/** Filler members below the sandbox's users, so the board has a second page. */
const fillerId = (n: number) => `9000000000000${String(n).padStart(5, '0')}`;

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
  // XP as the worker stores it: the level it makes, and the name and avatar hash the member had
  // when they last earned.
  await stack.database.db.insert(memberXp).values([
    {
      guildId: guilds.station,
      userId: users.ada,
      xp: 1_255,
      level: 5,
      username: 'ada',
      avatar: '0a1da0a1da0a1da0a1da0a1da0a1da0a',
    },
    {
      guildId: guilds.station,
      userId: users.mo,
      xp: 255,
      level: 2,
      username: 'mo',
      avatar: '0b2e0b2e0b2e0b2e0b2e0b2e0b2e0b2e',
    },
    { guildId: guilds.station, userId: users.nia, xp: 100, level: 1, username: 'nia', avatar: null },
    { guildId: guilds.station, userId: fillerId(1), xp: 90, username: null, avatar: null },
    ...Array.from({ length: 26 }, (_, i) => ({
      guildId: guilds.station,
      userId: fillerId(100 + i),
      xp: 80 - i,
      username: `cadet-with-a-rather-long-name-${i + 1}`,
      avatar: null,
    })),
  ]);
  page = await stack.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, stack.dashboardUrl, users.ada);
});
afterAll(async () => {
  await stack?.close();
});

const leaderboardUrl = () => `${stack.dashboardUrl}/dashboard/leveling/leaderboard?guild=${guilds.station}`;
const rows = () => page.getByRole('list', { name: 'Top members' }).getByRole('listitem');

describe('leveling leaderboard end to end', () => {
  it('ranks the seeded members with level, XP and progress, and pages through them', async () => {
    await page.goto(leaderboardUrl());
    await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
    await rows().first().waitFor();
    expect(await rows().count()).toBe(25);
    const first = rows().nth(0);
    expect(await first.locator('.leaderboard-rank').textContent()).toBe('Rank #1');
    expect(await first.locator('.leaderboard-name').textContent()).toBe('ada');
    expect(await first.locator('.leaderboard-level').textContent()).toBe('Level 5');
    expect(await first.locator('.leaderboard-xp').textContent()).toBe('1,255 XP');
    // 255 XP is level 2 exactly: an empty bar towards level 3 (220 XP).
    const second = rows().nth(1);
    expect(await second.locator('.leaderboard-level').textContent()).toBe('Level 2');
    expect(await second.locator('.leaderboard-progress-text').textContent()).toBe('0 / 220 XP');
    // 100 XP is level 1, 0 of 155 into it.
    expect(await rows().nth(2).locator('.leaderboard-progress-text').textContent()).toBe('0 / 155 XP');
    // No stored name: the id stands in.
    expect(await rows().nth(3).locator('.leaderboard-name').textContent()).toBe(fillerId(1));
    // Avatars load from the CDN (the sandbox draws them).
    const avatar = first.locator('img');
    await expect
      .poll(() => avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'leveling-leaderboard-1280');

    const pager = page.getByRole('navigation', { name: 'Leaderboard pages' });
    await pager.getByText('1–25 of 30 · Page 1 of 2').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('26–30 of 30 · Page 2 of 2').waitFor();
    expect(await rows().count()).toBe(5);
    expect(await rows().first().locator('.leaderboard-rank').textContent()).toBe('Rank #26');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    // Reloading keeps the page.
    await page.reload();
    await pager.getByText('26–30 of 30 · Page 2 of 2').waitFor();
  });

  it('fits a 375 px phone without sideways scrolling', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(leaderboardUrl());
    await rows().first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await rows().first().boundingBox();
    expect(box?.width).toBeLessThanOrEqual(375);
    await screenshot(page, 'leveling-leaderboard-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('picks a period from the URL and the buttons: this week has no daily XP yet', async () => {
    await page.goto(`${leaderboardUrl()}&period=week`);
    await page.getByRole('heading', { name: 'Nobody has earned XP this week yet.' }).waitFor();
    const periods = page.getByRole('group', { name: 'Period' });
    expect(await periods.getByRole('button', { name: 'This week' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await screenshot(page, 'leveling-leaderboard-week-empty-1280');
    await periods.getByRole('button', { name: 'All time' }).click();
    await rows().first().waitFor();
    expect(new URL(page.url()).searchParams.get('period')).toBeNull();
    expect(await rows().first().locator('.leaderboard-name').textContent()).toBe('ada');
  });

  it('says next to the channel which permission the bot lacks there, and saves once it is fixed', async () => {
    // An admin denies the bot's role Send Messages in #announcements (in Discord's channel settings).
    const overwrite = `${stack.sandbox.url}/_sandbox/channels/${channels.announcements}/permissions/${roles.stationBot}`;
    const put = await fetch(overwrite, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 0, allow: '0', deny: String(1n << 11n) }),
    });
    expect(put.status).toBe(200);
    await page.goto(`${stack.dashboardUrl}/dashboard/leveling/settings?guild=${guilds.station}`);
    const picker = page.getByLabel('Announcement channel');
    await picker.selectOption(channels.announcements);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const issue = page.locator('#lv-announcement-issue');
    await issue.waitFor();
    expect(await issue.textContent()).toBe(
      "Missing permission Send Messages in #announcements. Allow it for the bot in that channel's permissions on Discord, then save again.",
    );
    expect(await picker.getAttribute('aria-invalid')).toBe('true');
    // The sentence sits under its own field, not under the other channel picker.
    expect(await page.locator('#lv-overview-issue').count()).toBe(0);
    await screenshot(page, 'leveling-settings-missing-permission-1280');

    await fetch(overwrite, { method: 'DELETE' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    expect(await issue.count()).toBe(0);
  });

  it('adds boosts picked by name and lists them by name', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/leveling/boosts?guild=${guilds.station}`);
    await page.getByLabel('Applies to').selectOption('user');
    const member = page.getByRole('combobox', { name: 'Member (empty: all users)' });
    await member.fill('ni');
    await page.getByRole('option', { name: /Nia/ }).click();
    expect(await member.inputValue()).toBe('Nia');
    await page.getByLabel('Multiplier').fill('3');
    await page.getByRole('button', { name: 'Add boost' }).click();
    const boosts = page.getByRole('region', { name: 'Boosts' });
    await boosts.getByText('Nia').waitFor();
    expect(await member.inputValue()).toBe('');

    await page.getByLabel('Applies to').selectOption('role');
    const role = page.getByRole('combobox', { name: 'Role' });
    await role.click();
    await page.getByRole('option', { name: 'Crew' }).click();
    await page.getByRole('button', { name: 'Add boost' }).click();
    await boosts.getByText('Crew').waitFor();

    // A boost that ran out (the API refuses a past expiry, so it is stored directly).
    const expiredAt = new Date(Date.now() - 86_400_000);
    await stack.database.db.insert(levelingBoosts).values({
      guildId: guilds.station,
      multiplier: 1.5,
      userId: `-role:${roles.stationModerators}`,
      expiresAt: expiredAt,
    });
    await page.reload();
    const expired = boosts.getByRole('listitem').filter({ hasText: 'Moderators' });
    await expired
      .getByText(
        `Expired ${await page.evaluate((iso) => new Date(iso).toLocaleString(), expiredAt.toISOString())}`,
      )
      .waitFor();
    expect(await expired.getAttribute('class')).toContain('boost-expired');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'leveling-boosts-1280');
    // The member picker open on a search.
    await page.getByLabel('Applies to').selectOption('user');
    await page.getByRole('combobox', { name: 'Member (empty: all users)' }).fill('m');
    await page.getByRole('option', { name: /Mo/ }).waitFor();
    await screenshot(page, 'leveling-boosts-picker-1280', false);
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'leveling-boosts-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  // Ending the season sets every member's XP back to 0: only the curve test comes after it.
  it('ends the season through the dialog and lists it in the hall of fame', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/leveling/seasons?guild=${guilds.station}`);
    const hall = page.getByRole('region', { name: 'Hall of fame' });
    await hall.getByText('No season has ended yet.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'End season' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'End the season?' });
    await dialog.getByLabel('Season name').fill('Launch season');
    await dialog.getByLabel('Members keep their reward roles').check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'leveling-seasons-dialog-1280', false);
    await dialog.getByRole('button', { name: 'End season' }).click();
    await hall.getByRole('heading', { name: 'Launch season', level: 3 }).waitFor();
    // The dialog closes once the season is ended, which may be a render after the hall shows it.
    await dialog.waitFor({ state: 'detached' });
    expect(await dialog.count()).toBe(0);
    const top = hall.getByRole('list', { name: 'Launch season: top members' }).getByRole('listitem');
    expect(await top.count()).toBe(10);
    expect(await top.first().locator('.season-name').textContent()).toBe('ada');
    expect(await top.first().locator('.season-xp').textContent()).toBe('1,255 XP');
    expect(await top.first().locator('.season-level').textContent()).toBe('Level 5');
    await hall.getByText('30 members', { exact: false }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'leveling-seasons-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'leveling-seasons-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The season's board starts empty; all time still counts the archived XP.
    await page.goto(`${leaderboardUrl()}&period=season`);
    await page.getByRole('heading', { name: 'Nobody has earned XP this season yet.' }).waitFor();
    await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'All time' }).click();
    await rows().first().waitFor();
    expect(await rows().first().locator('.leaderboard-name').textContent()).toBe('ada');
  });

  // After the season's end: saving a new curve queues a level recompute, whose reward pass marks
  // the seeded members who are not in the sandbox server as left (they would drop off the boards
  // the tests above read). With every XP at 0 the recompute changes nothing.
  it('edits the XP range and the level curve, previews it before saving, and the API stores both', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/leveling/settings?guild=${guilds.station}`);
    await page.getByLabel('Least XP per message').fill('15');
    await page.getByLabel('Most XP per message').fill('25');
    await page.getByText('15–25 XP per message, 20 on average').waitFor();
    const level10 = page.getByTestId('curve-level-10').locator('td');
    // The default 5·L² + 50·L + 100: 4,675 XP to reach level 10, 955 of it from level 9.
    expect(await level10.allTextContents()).toEqual(['4,675', '955']);
    await page.getByLabel('a (× L²)').fill('10');
    await page.getByLabel('c (every level)').fill('40');
    // 10·(0+1+…+81) = 2,850 + 50·45 = 2,250 + 40·10 = 400: 5,500; the step 9→10 is 810 + 450 + 40.
    await expect.poll(() => level10.allTextContents()).toEqual(['5,500', '1,300']);
    await page.getByRole('checkbox', { name: 'Inactive members lose XP' }).check();
    await page.getByRole('checkbox', { name: /End a season automatically/ }).check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'leveling-settings-numbers-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'leveling-settings-numbers-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('checkbox', { name: 'Inactive members lose XP' }).uncheck();
    await page.getByRole('checkbox', { name: /End a season automatically/ }).uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();

    const stored = await page.evaluate(
      async ({ apiUrl, guildId }) => {
        const answer = await fetch(`${apiUrl}/api/guilds/${guildId}/leveling`, {
          headers: { authorization: window.sessionStorage.getItem('authorization') ?? '' },
        });
        return (await answer.json()).leveling;
      },
      { apiUrl: stack.apiUrl, guildId: guilds.station },
    );
    expect(stored).toMatchObject({
      xp_min: 15,
      xp_max: 25,
      level_curve: { kind: 'quadratic', a: 10, b: 50, c: 40 },
      xp_decay: null,
      season_months: null,
    });
    // The page reads the same back after a reload.
    await page.reload();
    expect(await page.getByLabel('Least XP per message').inputValue()).toBe('15');
    expect(await page.getByLabel('a (× L²)').inputValue()).toBe('10');
  });
});
