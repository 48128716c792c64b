import { BOT_PERMISSION_BITS, DEFAULT_BOT_PERMISSIONS, PERSONALITY_CATALOG } from '@spacecadet/core';
import { SANDBOX_IDS, type SandboxStateDump } from '@spacecadet/discord-sandbox';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

/**
 * Personality roles as a newcomer meets them: Initialize with only the categories chosen,
 * disabling a category deletes its message and (confirmed, with the count) its roles, Reset
 * says what it deletes, and the Onboarding switch says which permission the bot lacks.
 */
const { users, guilds, channels } = SANDBOX_IDS;
const JOB_TIMEOUT = 30_000;
const CHOSEN = ['Zodiac Sign', 'Pronouns'];
const labelsOf = (title: string) =>
  PERSONALITY_CATALOG.find((q) => q.title === title)?.options.map((o) => o.label) ?? [];
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

async function station() {
  const response = await fetch(`${stack.sandbox.url}/_sandbox/state`);
  const state = (await response.json()) as SandboxStateDump;
  const guild = state.guilds.find((g) => g.id === guilds.station);
  if (!guild) throw new Error('Sandbox Station is missing from the sandbox state');
  const rolesChannel = guild.channels.find((c) => c.id === channels.roles);
  return {
    roleNames: guild.roles.map((role) => role.name),
    questionMessages: (rolesChannel?.messages ?? [])
      .filter((m) => m.author.id === SANDBOX_IDS.bot)
      .map((m) => m.embeds?.[0]?.title ?? ''),
  };
}
const ofCategories = (names: string[], titles: string[]) =>
  names.filter((name) => titles.flatMap(labelsOf).includes(name));

/**
 * Screenshots at a desktop's and a phone's width, with no sideways scrolling on the phone. With
 * `focus`, the viewport scrolled to that part of the page; else the whole page.
 */
async function atBothWidths(name: string, focus?: Locator) {
  const shoot = async (file: string) => {
    if (!focus) return screenshot(page, file);
    await focus.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    return screenshot(page, file, false);
  };
  await shoot(`${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot(`${name}-390`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

describe('personality roles for a newcomer', () => {
  it('initializes only the categories chosen in the Initialize card', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/personality-roles?guild=${guilds.station}`);
    const card = page.getByRole('region', { name: 'Initialize Personality Roles' });
    await card.getByRole('group', { name: 'Categories to turn on' }).waitFor();
    const boxes = card.getByRole('checkbox');
    expect(await boxes.count()).toBe(PERSONALITY_CATALOG.length);
    await page.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
    for (const question of PERSONALITY_CATALOG) {
      if (!CHOSEN.includes(question.title)) {
        await card.getByRole('checkbox', { name: new RegExp(`^${question.title} \\(`) }).uncheck();
      }
    }
    const roles = CHOSEN.flatMap(labelsOf).length;
    await card.getByText(`2 of 10 categories · ${roles} roles will be created`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await atBothWidths('personality-init-categories');

    await card.getByRole('button', { name: 'Initialize Personality Roles' }).click();
    await page.getByRole('button', { name: 'Zodiac Sign: Enabled' }).waitFor();
    await page.getByRole('button', { name: 'Pronouns: Enabled' }).waitFor();
    await page.getByRole('button', { name: 'Gender: Disabled' }).waitFor();

    await page.getByRole('button', { name: 'Generate Roles' }).click();
    await page.getByText('Generating roles: done').waitFor({ timeout: JOB_TIMEOUT });
    const names = (await station()).roleNames;
    expect(ofCategories(names, CHOSEN).sort()).toEqual(CHOSEN.flatMap(labelsOf).sort());
    const others = PERSONALITY_CATALOG.map((q) => q.title).filter((t) => !CHOSEN.includes(t));
    expect(ofCategories(names, others)).toEqual([]);

    await page.getByRole('button', { name: 'Post / Update Messages' }).click();
    await page.getByText('Posting the messages: done').waitFor({ timeout: JOB_TIMEOUT });
    expect((await station()).questionMessages).toEqual(CHOSEN);
  });

  it('says next to the Onboarding switch that Manage Server is missing, with an invite asking for it', async () => {
    const region = page.getByRole('region', { name: 'Discord Onboarding' });
    const note = region.getByText(/needs the Manage Server permission, which I don't have here/);
    await note.waitFor();
    expect(await region.getByRole('switch').isDisabled()).toBe(true);
    const href = await region
      .getByRole('link', { name: 'Re-invite the bot with Manage Server' })
      .getAttribute('href');
    // The link goes through the API, which sends the admin to Discord asking for the bits.
    const response = await fetch(href ?? '', { redirect: 'manual' });
    expect(response.status).toBe(302);
    const authorize = new URL(response.headers.get('location') ?? '');
    const asked = BigInt(authorize.searchParams.get('permissions') ?? '0');
    expect(asked & BOT_PERMISSION_BITS.MANAGE_GUILD).toBe(BOT_PERMISSION_BITS.MANAGE_GUILD);
    expect(asked & BigInt(DEFAULT_BOT_PERMISSIONS)).toBe(BigInt(DEFAULT_BOT_PERMISSIONS));
    expect(authorize.searchParams.get('guild_id')).toBe(guilds.station);
    // Said by the switch, not in the page's error box.
    expect(await page.getByRole('alert').count()).toBe(0);
    await atBothWidths('personality-onboarding-permission', region);
  });

  it('disabling a category removes its message and, confirmed with the count, its roles', async () => {
    await page.getByRole('button', { name: 'Zodiac Sign: Enabled' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete the roles of Zodiac Sign?' });
    const asked = [(await dialog.locator('p').first().textContent()) ?? ''];
    await dialog.getByRole('button', { name: /^Delete its \d+ roles$/ }).click();
    await page.getByText('Deleting roles: done').waitFor({ timeout: JOB_TIMEOUT });
    expect(asked).toEqual([
      `Zodiac Sign is disabled and its message will be removed. Delete the ${labelsOf('Zodiac Sign').length} roles of Zodiac Sign in Discord too? Members lose them; Cancel keeps them.`,
    ]);
    await expect
      .poll(async () => ofCategories((await station()).roleNames, ['Zodiac Sign']), { timeout: JOB_TIMEOUT })
      .toEqual([]);
    await expect
      .poll(async () => (await station()).questionMessages, { timeout: JOB_TIMEOUT })
      .toEqual(['Pronouns']);
    expect(ofCategories((await station()).roleNames, ['Pronouns'])).toHaveLength(labelsOf('Pronouns').length);
  });

  it('keeps the roles when the admin cancels, and offers to delete them later', async () => {
    await page.getByRole('button', { name: 'Pronouns: Enabled' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete the roles of Pronouns?' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    const later = page.getByRole('button', { name: 'Delete its 5 roles in Discord' });
    await later.waitFor();
    await expect.poll(async () => (await station()).questionMessages, { timeout: JOB_TIMEOUT }).toEqual([]);
    expect(ofCategories((await station()).roleNames, ['Pronouns'])).toHaveLength(labelsOf('Pronouns').length);
    await atBothWidths('personality-disabled-kept-roles', later);
  });

  it("Reset's confirmation names what it deletes, with counts", async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Reset' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset personality roles?' });
    const asked = [(await dialog.locator('p').first().textContent()) ?? ''];
    await dialog.getByRole('button', { name: 'Reset Personality' }).click();
    const card = page.getByRole('region', { name: 'Initialize Personality Roles' });
    await card.getByText('Resetting personality roles: done').waitFor({ timeout: JOB_TIMEOUT });
    expect(asked).toEqual([
      `Reset personality roles for this server? This deletes ${labelsOf('Pronouns').length} roles and 0 messages in Discord and removes the 10 question categories with their options. Continue?`,
    ]);
    const after = await station();
    expect(after.questionMessages).toEqual([]);
    expect(ofCategories(after.roleNames, CHOSEN)).toEqual([]);
  });
});
