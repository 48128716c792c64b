import { join } from 'node:path';
import { RANK_CARD_LAYOUT } from '@spacecadet/core';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInAs } from './helpers.ts';
import { SCREENSHOT_DIR, type Stack, startStack } from './stack.ts';

const { users, guilds } = SANDBOX_IDS;
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

/** The rank card group of the leveling settings page. */
const group = () => page.locator('fieldset', { has: page.locator('legend', { hasText: 'Rank card' }) });
const previewImage = () => group().getByRole('img', { name: /^Rank card of / });

describe('rank card preview end to end', () => {
  it('shows the card the API drew, drawn again in a typed accent, at desktop and phone widths', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/leveling/settings?guild=${guilds.station}`);
    await previewImage().waitFor({ timeout: 20_000 });
    const loaded = async () =>
      page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.rank-card-preview img');
        return img?.complete === true && img.naturalWidth > 0;
      });
    await loaded();
    expect(await previewImage().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(
      RANK_CARD_LAYOUT.width,
    );
    const first = await previewImage().getAttribute('src');
    await group().getByLabel('Accent color').fill('#E91E63');
    await page.waitForFunction(
      (before) => document.querySelector<HTMLImageElement>('.rank-card-preview img')?.src !== before,
      first,
    );
    await loaded();
    await group().scrollIntoViewIfNeeded();
    await group().screenshot({ path: join(SCREENSHOT_DIR, 'rank-card-preview-1280.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await group().scrollIntoViewIfNeeded();
    await group().screenshot({ path: join(SCREENSHOT_DIR, 'rank-card-preview-375.png') });
    const box = await previewImage().boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(375);
  });
});
