import { PERSONALITY_CATALOG } from '@spacecadet/core';
import { SANDBOX_IDS, type SandboxStateDump } from '@spacecadet/discord-sandbox';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

const { users, guilds, channels } = SANDBOX_IDS;
const TITLES = PERSONALITY_CATALOG.map((question) => question.title);
const OPTION_COUNT = PERSONALITY_CATALOG.reduce((n, question) => n + question.options.length, 0);
const JOB_TIMEOUT = 30_000;
let stack: Stack;
let page: Page;

beforeAll(async () => {
  stack = await startStack(inject('distDir'));
  page = await stack.browser.newPage();
  await signInAs(page, stack.dashboardUrl, users.ada);
});
afterAll(async () => {
  await stack?.close();
});

/** The sandbox as Discord holds it, read the way any client can: GET /_sandbox/state. */
async function station() {
  const response = await fetch(`${stack.sandbox.url}/_sandbox/state`);
  const state = (await response.json()) as SandboxStateDump;
  const guild = state.guilds.find((g) => g.id === guilds.station);
  if (!guild) throw new Error('Sandbox Station is missing from the sandbox state');
  const rolesChannel = guild.channels.find((c) => c.id === channels.roles);
  return {
    roles: guild.roles,
    /** The names of the roles nia holds. */
    niaRoles: () => {
      const held = guild.members.find((m) => m.user_id === users.nia)?.roles ?? [];
      return guild.roles.filter((role) => held.includes(role.id)).map((role) => role.name);
    },
    /** The embed titles of the bot's messages in #roles, oldest first. */
    questionMessages: (rolesChannel?.messages ?? [])
      .filter((m) => m.author.id === SANDBOX_IDS.bot)
      .map((m) => m.embeds?.[0]?.title ?? ''),
  };
}

const personalityUrl = () => `${stack.dashboardUrl}/dashboard/personality-roles?guild=${guilds.station}`;
const questionItem = (title: string): Locator =>
  page.locator('.question-item', { has: page.getByRole('heading', { name: title, exact: true }) });

describe('personality roles end to end', () => {
  it('initializes, generates the roles and posts one message per question', async () => {
    await page.goto(personalityUrl());
    const initialize = page.getByRole('button', { name: 'Initialize Personality Roles' });
    await initialize.waitFor();
    await page.getByText('Please select a channel first').waitFor();
    await page.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
    await initialize.click();

    const categories = page.getByRole('region', { name: 'Question Categories' });
    await categories.waitFor();
    expect(await categories.getByRole('heading', { level: 3 }).allTextContents()).toEqual(TITLES);
    await page.getByRole('button', { name: 'Gender: Enabled' }).waitFor();
    await questionItem('Gender').getByText('5 roles · Single choice').waitFor();
    await questionItem('Pronouns').getByText('5 roles · Multi-select').waitFor();

    await page.getByRole('button', { name: 'Generate Roles' }).click();
    await page.getByText('Generating roles: done').waitFor({ timeout: JOB_TIMEOUT });
    // The refresh queued by Initialize may have made some of them first: together, all of them.
    const generated = page.getByText(/^\d+ roles? created, \d+ already present\.$/);
    await generated.waitFor();
    const [created = 0, present = 0] =
      ((await generated.textContent()) ?? '').match(/\d+/g)?.map(Number) ?? [];
    expect(created + present).toBe(OPTION_COUNT);
    // One role per option, none twice (the refresh and the job never both make one).
    const names = (await station()).roles.map((role) => role.name);
    for (const label of PERSONALITY_CATALOG.flatMap((q) => q.options.map((o) => o.label))) {
      expect(
        names.filter((name) => name === label),
        label,
      ).toHaveLength(1);
    }

    await page.getByRole('button', { name: 'Post / Update Messages' }).click();
    await page.getByText('Posting the messages: done').waitFor({ timeout: JOB_TIMEOUT });
    await page.getByText(`Messages: ${TITLES.length} posted.`).waitFor();
    expect((await station()).questionMessages).toEqual(TITLES);
  });

  it('says when the refresh that Initialize queued ran', async () => {
    const lastRefresh = page.getByText(/^Last refresh (just now|\d+ minutes? ago)[:.]/);
    // The page re-reads its state each minute (and after each job): a reload reads it now.
    await expect
      .poll(
        async () => {
          if (await lastRefresh.isVisible()) return true;
          await page.reload();
          await page.getByRole('region', { name: 'Question Categories' }).waitFor();
          return lastRefresh.isVisible();
        },
        { timeout: JOB_TIMEOUT, interval: 500 },
      )
      .toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'personality-roles-set-up-1366');
  });

  it('fits a 390 px phone: no horizontal overflow, each toggle beside its title', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.reload();
      await page.getByRole('region', { name: 'Question Categories' }).waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      const boxes = await page.locator('.question-item').evaluateAll((items) =>
        items.map((item) => {
          const title = item.querySelector('h3')?.getBoundingClientRect();
          const toggle = item.querySelector('button')?.getBoundingClientRect();
          const box = item.getBoundingClientRect();
          return {
            title: item.querySelector('h3')?.textContent,
            beside: !!title && !!toggle && toggle.left >= title.right && toggle.top < title.bottom,
            inside: !!toggle && toggle.right <= box.right && toggle.left >= box.left,
          };
        }),
      );
      expect(boxes.filter((b) => !b.beside || !b.inside)).toEqual([]);
      await screenshot(page, 'personality-roles-390');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('lets nia answer in the sandbox chat view: single choice replaces, multi-select adds', async () => {
    const chat = await stack.browser.newPage();
    try {
      await chat.goto(
        `${stack.sandbox.url}/chat?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`,
      );
      const embeds = chat.locator('[data-testid="message"] [data-testid="embed"] .title');
      await embeds.nth(TITLES.length - 1).waitFor();
      expect(await embeds.allTextContents()).toEqual(TITLES);

      const question = (description: string) =>
        chat.locator('[data-testid="message"]', { hasText: description });
      const answer = (text: string) =>
        chat.locator('[data-testid="ephemeral-message"]', { hasText: text }).waitFor();
      const gender = question('How do you identify?');
      await gender.getByRole('button', { name: / Male$/ }).click();
      await answer('Your Gender: Male.');
      await expect.poll(async () => (await station()).niaRoles()).toContain('Male');

      await gender.getByRole('button', { name: / Female$/ }).click();
      await answer('Your Gender: Female.');
      await expect.poll(async () => (await station()).niaRoles()).toContain('Female');
      expect((await station()).niaRoles()).not.toContain('Male');

      const pronouns = question('Which pronouns do you use?');
      await pronouns.getByRole('button', { name: / He\/Him$/ }).click();
      await answer('Your Pronouns: He/Him.');
      await pronouns.getByRole('button', { name: / They\/Them$/ }).click();
      await answer('Your Pronouns: He/Him, They/Them.');
      await expect
        .poll(async () => (await station()).niaRoles())
        .toEqual(expect.arrayContaining(['Female', 'He/Him', 'They/Them']));
      // A select menu is drawn only past 20 options; no catalog question has that many.
      expect(await chat.locator('[data-testid="component-select"]').count()).toBe(0);
      await screenshot(chat, 'personality-roles-sandbox-chat', false);
    } finally {
      await chat.close();
    }
  });

  it('shows a question toggled off as Disabled, and the refresh takes its message down', async () => {
    await page.goto(personalityUrl());
    await page.getByRole('button', { name: 'Gender: Enabled' }).click();
    // It offers to delete Gender's roles too: kept here (the reset below counts them).
    await page
      .getByRole('alertdialog', { name: 'Delete the roles of Gender?' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await page.getByRole('button', { name: 'Gender: Disabled' }).waitFor();
    // The toggle (the item also offers to delete the roles kept when the question went off).
    const toggle = questionItem('Gender').getByRole('button', { name: /^Gender: / });
    expect(await toggle.textContent()).toBe('Disabled');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await expect
      .poll(async () => (await station()).questionMessages, { timeout: JOB_TIMEOUT })
      .toEqual(TITLES.filter((title) => title !== 'Gender'));
  });

  it('resets after the confirmation and shows the Initialize card again', async () => {
    await page.getByRole('button', { name: 'Reset' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset personality roles?' });
    const confirmed = [(await dialog.locator('p').first().textContent()) ?? ''];
    await dialog.getByRole('button', { name: 'Reset Personality' }).click();
    const card = page.getByRole('region', { name: 'Initialize Personality Roles' });
    await card.getByRole('button', { name: 'Initialize Personality Roles' }).waitFor();
    // It names what goes: every role, the messages left (Gender's went when it was disabled).
    expect(confirmed).toEqual([
      `Reset personality roles for this server? This deletes ${OPTION_COUNT} roles and ${TITLES.length - 1} messages in Discord and removes the ${TITLES.length} question categories with their options. Continue?`,
    ]);
    expect(await page.getByRole('region', { name: 'Question Categories' }).count()).toBe(0);
    await card.getByText('Resetting personality roles: done').waitFor({ timeout: JOB_TIMEOUT });
    const after = await station();
    expect(after.questionMessages).toEqual([]);
    expect(after.roles.map((role) => role.name)).not.toContain('Female');
    expect(after.niaRoles()).toEqual(['Crew']);
  });
});
