import { SANDBOX_IDS, type SandboxStateDump } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

/**
 * A question of the server's own, built on the Personality Roles page against the real API,
 * worker and sandbox: Add question with two options, one opening a private channel; generate
 * the roles, post the messages; nia answers in the sandbox chat view and holds the role, and
 * the channel is open to it. Then how the page looks at 1280 and 390 px.
 */
const { users, guilds, channels } = SANDBOX_IDS;
const JOB_TIMEOUT = 30_000;
/** Discord's View Channel permission bit. */
const VIEW_CHANNEL = 1n << 10n;
const TITLE = 'Favourite deck';
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
  return {
    niaRoles: () => {
      const held = guild.members.find((m) => m.user_id === users.nia)?.roles ?? [];
      return guild.roles.filter((role) => held.includes(role.id)).map((role) => role.name);
    },
  };
}

/** Whether nia can see #announcements, as Discord computes it (roles, then overwrites). */
async function niaSeesAnnouncements(): Promise<boolean> {
  const response = await fetch(
    `${stack.sandbox.url}/_sandbox/guilds/${guilds.station}/channels/${channels.announcements}/members/${users.nia}/permissions`,
  );
  return ((await response.json()) as { view_channel: boolean }).view_channel;
}

/** The whole page in one viewport (a full-page capture draws the sticky header halfway down). */
async function capture(target: Page, width: number, path: string): Promise<void> {
  await target.setViewportSize({ width, height: 900 });
  const height = await target.evaluate(() => document.documentElement.scrollHeight);
  await target.setViewportSize({ width, height });
  await target.screenshot({ path });
}

describe('a question of the server own, end to end', () => {
  it('builds a question on the page, posts it, and a member who answers gets the role and the channel', async () => {
    // #announcements made private: @everyone may not view it.
    const hidden = await fetch(
      `${stack.sandbox.url}/_sandbox/channels/${channels.announcements}/permissions/${guilds.station}`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 0, allow: '0', deny: String(VIEW_CHANNEL) }),
      },
    );
    expect(hidden.status).toBe(200);

    await page.goto(`${stack.dashboardUrl}/dashboard/personality-roles?guild=${guilds.station}`);
    const init = page.getByRole('region', { name: 'Initialize Personality Roles' });
    await init.getByRole('button', { name: 'Initialize Personality Roles' }).waitFor();
    // One category only: the question of our own is what this is about.
    for (const box of await init.getByRole('checkbox').all()) await box.uncheck();
    await init.getByRole('checkbox', { name: /^Pronouns/ }).check();
    await page.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
    await init.getByRole('button', { name: 'Initialize Personality Roles' }).click();
    const list = page.getByRole('region', { name: 'Question Categories' });
    await list.waitFor();

    await list.getByRole('button', { name: 'Add question' }).click();
    const editor = page.getByRole('region', { name: 'New question' });
    await editor.getByLabel('Title').fill(TITLE);
    await editor.getByLabel('Description').fill('Where do you spend your shift?');
    await editor.getByLabel('Label (option 1)').fill('Bridge');
    await editor.getByLabel('Label (option 2)').fill('Engine room');
    const picker = editor.getByRole('combobox', { name: 'Channels it opens (option 1)' });
    await picker.click();
    await page
      .getByRole('listbox', { name: 'Channels it opens (option 1)' })
      .getByRole('option', { name: '#announcements' })
      .click();
    await editor
      .getByRole('list', { name: 'Channels it opens (option 1)' })
      .getByText('#announcements')
      .waitFor();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText(TITLE).waitFor();
    await preview.getByText('Engine room').waitFor();
    await editor.getByRole('button', { name: 'Create question' }).click();
    await list.getByRole('heading', { name: TITLE }).waitFor();
    await editor.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Generate Roles' }).click();
    await page.getByText('Generating roles: done').waitFor({ timeout: JOB_TIMEOUT });
    await page.getByRole('button', { name: 'Post / Update Messages' }).click();
    await page.getByText('Posting the messages: done').waitFor({ timeout: JOB_TIMEOUT });

    expect(await niaSeesAnnouncements()).toBe(false);
    const chat = await stack.browser.newPage();
    try {
      await chat.goto(
        `${stack.sandbox.url}/chat?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`,
      );
      const question = chat.locator('[data-testid="message"]', { hasText: 'Where do you spend your shift?' });
      await question.getByRole('button', { name: /Bridge$/ }).click();
      await expect
        .poll(async () => (await station()).niaRoles(), { timeout: JOB_TIMEOUT })
        .toContain('Bridge');
    } finally {
      await chat.close();
    }

    // Insights count nia's answer (recorded by the worker, no Discord request).
    await page.reload();
    const insights = page.getByRole('region', { name: 'Insights' });
    const table = insights.getByRole('table', { name: `${TITLE}: answers over the last 30 days` });
    await expect
      .poll(async () => (await table.getByRole('row', { name: /^Bridge/ }).textContent()) ?? '', {
        timeout: JOB_TIMEOUT,
      })
      .toMatch(/^Bridge1/);
  });

  it('fits at 1280 and 390 px with the editor open', async () => {
    const list = page.getByRole('region', { name: 'Question Categories' });
    await list.getByRole('button', { name: `Edit ${TITLE}` }).click();
    await page.getByRole('region', { name: `Edit ${TITLE}` }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await capture(page, 1280, '/tmp/personality-1280.png');
    await capture(page, 390, '/tmp/personality-390.png');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
