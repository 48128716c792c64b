import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

const { users, guilds, channels } = SANDBOX_IDS;
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

function postedPanel() {
  const station = stack.sandbox.state().guilds.find((g) => g.id === guilds.station);
  const channel = station?.channels.find((c) => c.id === channels.roles);
  const message = channel?.messages.findLast((m) => m.author.id === SANDBOX_IDS.bot);
  return { station, message };
}

/** The posted buttons as "<emoji> <label>", the way Discord draws them. */
function postedButtons(message: ReturnType<typeof postedPanel>['message']): string[] {
  return (message?.components ?? []).flatMap((row) =>
    'components' in row
      ? row.components.flatMap((c) =>
          'label' in c && c.label ? [`${'emoji' in c ? (c.emoji?.name ?? '') : ''} ${c.label}`] : [],
        )
      : [],
  );
}

describe('color roles end to end', () => {
  it('generates roles, saves the channel, posts the panel the preview showed', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/color-roles?guild=${guilds.station}`);
    await page.getByText('No colors configured yet').waitFor();
    await page.getByRole('button', { name: 'Generate Roles' }).click();
    await page.getByText('Generating roles: done').waitFor({ timeout: 30_000 });
    // The palette reloads ~800 ms after the job finishes.
    await page.getByRole('region', { name: 'Panel buttons' }).waitFor({ timeout: 10_000 });
    await page.getByRole('list', { name: 'Red shades' }).waitFor();

    await page.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Channel saved').waitFor();
    await page.getByRole('button', { name: 'Post / Update Panel' }).click();
    await page.getByText('Posting the panel: done').waitFor({ timeout: 30_000 });

    const preview = await page
      .getByRole('region', { name: 'Panel buttons' })
      .getByRole('listitem')
      .evaluateAll((items) =>
        items.map(
          (item) =>
            `${item.querySelector('.discord-button-emoji')?.textContent} ${item.querySelector('.discord-button-label')?.textContent}`,
        ),
      );
    expect(preview.length).toBeGreaterThan(0);
    expect(preview[0]).toBe('🟥 Red');
    expect(postedButtons(postedPanel().message)).toEqual(preview);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'color-roles-1280');
  });

  it('shows whole labels in rows of 4, and the sidebar reaches the bottom of a long page', async () => {
    const buttons = page.getByRole('region', { name: 'Panel buttons' }).getByRole('listitem');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // A label that is cut (ellipsis or hidden overflow) is wider or taller than its box.
      const cut = await page
        .locator('.discord-button-label')
        .evaluateAll((labels) =>
          labels
            .filter((l) => l.scrollWidth > l.clientWidth + 1 || l.scrollHeight > l.clientHeight + 1)
            .map((l) => l.textContent),
        );
      expect(cut, `cut labels at ${width} px`).toEqual([]);
      const tops = await buttons.evaluateAll((items) =>
        items.slice(0, 5).map((item) => Math.round(item.getBoundingClientRect().top)),
      );
      expect(new Set(tops.slice(0, 4)).size, `first row at ${width} px`).toBe(1);
      expect(tops[4]).toBeGreaterThan(tops[0] ?? 0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const bottoms = await page.evaluate(() => {
      const sidebar = document.querySelector('aside[aria-label="Configuration"]');
      return {
        sidebar: (sidebar?.getBoundingClientRect().bottom ?? 0) + window.scrollY,
        page: document.documentElement.scrollHeight,
      };
    });
    expect(bottoms.page).toBeGreaterThan(900);
    expect(bottoms.sidebar).toBeGreaterThanOrEqual(bottoms.page - 1);
  });

  it('lets a member pick a color in the sandbox chat view', async () => {
    const chat = await stack.browser.newPage();
    await chat.goto(
      `${stack.sandbox.url}/chat?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`,
    );
    const buttons = chat.locator('[data-testid="component-button"]');
    await buttons.first().waitFor();
    // Each posted button shows its emoji before the label, as Discord does.
    const drawn = await buttons.evaluateAll((items) =>
      items.map((item) => [...item.children].map((child) => `${child.className}:${child.textContent}`)),
    );
    expect(drawn.map((parts) => parts.join(' '))).toEqual(
      postedButtons(postedPanel().message).map((text) => {
        const [emoji, ...label] = text.split(' ');
        return `emoji:${emoji} label:${label.join(' ')}`;
      }),
    );
    await chat.locator('[data-testid="component-button"]', { hasText: 'Red' }).first().click();
    const { station } = postedPanel();
    const redRole = station?.roles.find((role) => role.name === 'Red');
    expect(redRole).toBeDefined();
    await expect
      .poll(
        () =>
          postedPanel()
            .station?.members.find((m) => m.user_id === users.nia)
            ?.roles.includes(redRole?.id ?? ''),
        { timeout: 10_000 },
      )
      .toBe(true);
    await screenshot(chat, 'sandbox-chat-panel', false);
    await chat.close();
  });

  it('renders personality roles and leveling accessibly', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/personality-roles?guild=${guilds.station}`);
    await page.getByRole('button', { name: 'Initialize Personality Roles' }).waitFor();
    await page.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
    await page.getByRole('button', { name: 'Initialize Personality Roles' }).click();
    await page.getByRole('heading', { name: 'Question Categories' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'personality-roles-1280');

    await page.goto(`${stack.dashboardUrl}/dashboard/leveling?guild=${guilds.station}`);
    await page.getByRole('heading', { name: 'Leveling settings' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'leveling-settings-1280');
    await page.goto(`${stack.dashboardUrl}/dashboard/leveling/roles?guild=${guilds.station}`);
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.getByText('pending').or(page.getByText('created')).first().waitFor();
    await screenshot(page, 'leveling-roles-1280');
  });

  it('says in the Panel Channel card which permission the bot lacks in the picked channel', async () => {
    const overwrite = `${stack.sandbox.url}/_sandbox/channels/${channels.announcements}/permissions/${SANDBOX_IDS.roles.stationBot}`;
    // An admin denies the bot's role Embed Links in #announcements: the panel is an embed.
    await fetch(overwrite, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 0, allow: '0', deny: String(1n << 14n) }),
    });
    try {
      await page.goto(`${stack.dashboardUrl}/dashboard/color-roles?guild=${guilds.station}`);
      const card = page.getByRole('region', { name: 'Panel Channel' });
      await card.getByLabel('Channel', { exact: true }).selectOption(channels.announcements);
      await card.getByRole('button', { name: 'Save', exact: true }).click();
      await card.getByText('Missing permission Embed Links in #announcements.').waitFor();
    } finally {
      await fetch(overwrite, { method: 'DELETE' });
    }
  });

  it("refuses an admin's crafted request to move the panel into another server's channel", async () => {
    // ada is not in Other Orbit, but the bot is: the API must not store its channel, so the
    // next post (through the real worker) lands in Station's channel and never in Orbit's.
    const api = async (method: string, path: string, body?: object) =>
      page.evaluate(
        async ({ url, method, body }) => {
          const authorization = window.sessionStorage.getItem('authorization') ?? '';
          const response = await fetch(url, {
            method,
            headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
            ...(body ? { body: JSON.stringify(body) } : {}),
          });
          return { status: response.status, body: await response.json() };
        },
        { url: `${stack.apiUrl}${path}`, method, body },
      );
    const station = `/api/guilds/${guilds.station}`;
    const moved = await api('PUT', `${station}/color-roles/channel`, { channel_id: channels.orbitHangar });
    expect(moved).toEqual({
      status: 400,
      body: { error: 'invalid_input', message: 'channel_id is not a text channel of this server' },
    });
    expect((await api('GET', `${station}/color-roles`)).body).toMatchObject({ channel_id: channels.roles });

    const posted = await api('POST', `${station}/color-roles/post-panel`);
    expect(posted.status).toBe(202);
    await expect
      .poll(
        async () => (await api('GET', `/api/jobs/${encodeURIComponent(posted.body.job_id)}`)).body.state,
        {
          timeout: 30_000,
        },
      )
      .toBe('completed');
    const orbit = stack.sandbox.state().guilds.find((g) => g.id === guilds.orbit);
    expect(orbit?.channels.flatMap((channel) => channel.messages)).toEqual([]);
    expect(postedPanel().message).toBeDefined();
  });
});
