import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, seriousA11yViolations, signInAs } from './helpers.ts';
import { type Stack, startStack } from './stack.ts';

/**
 * The palette editor end to end (issue 22): the admin renames and recolors Red, removes Orange,
 * adds Teal and saves; Generate Roles brings Discord in line (Red's role renamed and recolored
 * in place, so Nia keeps it; Orange's role deleted; Teal's created) and updates the posted
 * panel, which then shows the new colors.
 */
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

const station = () => stack.sandbox.state().guilds.find((g) => g.id === guilds.station);
const roleNamed = (name: string) => station()?.roles.find((role) => role.name === name);
function postedButtons(): string[] {
  const channel = station()?.channels.find((c) => c.id === channels.roles);
  const message = channel?.messages.findLast((m) => m.author.id === SANDBOX_IDS.bot);
  return (message?.components ?? []).flatMap((row) =>
    'components' in row ? row.components.flatMap((c) => ('label' in c && c.label ? [c.label] : [])) : [],
  );
}
const previewLabels = () =>
  page
    .getByRole('region', { name: 'Panel buttons' })
    .locator('.discord-button-label')
    .evaluateAll((labels) => labels.map((label) => label.textContent ?? ''));

/** The palette shows as stored (by group) until Edit palette opens the editor. */
async function openEditor(): Promise<void> {
  const edit = page.getByRole('region', { name: 'Palette' }).getByRole('button', { name: 'Edit palette' });
  if (await edit.isVisible()) await edit.click();
  await page.getByRole('button', { name: 'Save palette' }).waitFor();
}

describe('editing the color palette', () => {
  it('renames, recolors, removes and adds colors; Generate Roles and the posted panel follow', async () => {
    await page.goto(`${stack.dashboardUrl}/dashboard/color-roles?guild=${guilds.station}`);
    await page.getByText('No colors configured yet').waitFor();
    await page.getByRole('button', { name: 'Generate Roles' }).click();
    await page.getByText('Generating roles: done').waitFor({ timeout: 30_000 });
    await page.getByRole('region', { name: 'Panel buttons' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Channel', { exact: true }).selectOption(channels.roles);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Channel saved').waitFor();
    await page.getByRole('button', { name: 'Post / Update Panel' }).click();
    await page.getByText('Posting the panel: done').waitFor({ timeout: 30_000 });
    expect(postedButtons().slice(0, 2)).toEqual(['Red', 'Orange']);

    const red = roleNamed('Red');
    const orange = roleNamed('Orange');
    if (!red || !orange) throw new Error('roles not generated');
    await fetch(
      `${stack.sandbox.url}/_sandbox/guilds/${guilds.station}/members/${users.nia}/roles/${red.id}`,
      {
        method: 'PUT',
      },
    );

    const palette = page.getByRole('region', { name: 'Palette' });
    await openEditor();
    await palette.getByRole('textbox', { name: 'Color 1 name', exact: true }).fill('Scarlet');
    await palette.getByRole('textbox', { name: 'Color 1 hex', exact: true }).fill('#FF2400');
    await palette.getByRole('button', { name: 'Remove Orange' }).click();
    const remove = page.getByRole('alertdialog', { name: 'Remove this color?' });
    await remove.getByText('After you save, you can undo this from History.').waitFor();
    await remove.getByRole('button', { name: 'Remove', exact: true }).click();
    await palette.getByRole('button', { name: 'Add color' }).click();
    await palette.getByRole('textbox', { name: 'Color 12 name', exact: true }).fill('Teal');
    await palette.getByRole('textbox', { name: 'Color 12 hex', exact: true }).fill('#008080');
    await palette.getByRole('button', { name: 'Move Teal up' }).click();
    // The preview follows the draft before anything is saved.
    expect((await previewLabels()).slice(0, 2)).toEqual(['Scarlet', 'Yellow']);
    expect(await previewLabels()).toContain('Teal');
    await screenshot(page, 'color-palette-editing-1280');

    await palette.getByRole('button', { name: 'Save palette' }).click();
    await palette.getByText(/^Palette saved/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Generate Roles' }).click();
    await page.getByText('Generating roles: done').waitFor({ timeout: 30_000 });
    // Red's role, renamed and recolored in place: Nia still wears it.
    expect(station()?.roles.find((role) => role.id === red.id)).toMatchObject({
      name: 'Scarlet',
      color: 0xff2400,
    });
    expect(station()?.members.find((m) => m.user_id === users.nia)?.roles).toContain(red.id);
    expect(station()?.roles.some((role) => role.id === orange.id)).toBe(false);
    expect(roleNamed('Teal')).toMatchObject({ color: 0x008080 });
    // The posted panel was updated by Generate Roles: it shows what the preview showed.
    await expect.poll(() => postedButtons()).toEqual(await previewLabels());
    expect(postedButtons()).toContain('Teal');
    expect(postedButtons()).not.toContain('Orange');
    await screenshot(page, 'color-palette-1280');

    // A member picks the new colour on the updated panel in the sandbox chat view.
    const chat = await stack.browser.newPage();
    await chat.goto(
      `${stack.sandbox.url}/chat?guild=${guilds.station}&user=${users.mo}&channel=${channels.roles}`,
    );
    await chat.locator('[data-testid="component-button"]', { hasText: 'Teal' }).first().click();
    const teal = roleNamed('Teal');
    await expect
      .poll(
        () =>
          station()
            ?.members.find((m) => m.user_id === users.mo)
            ?.roles.includes(teal?.id ?? ''),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    await chat.getByText(/You now have the/).waitFor({ timeout: 10_000 });
    await screenshot(chat, 'color-palette-chat', false);
    await chat.close();
  });

  it('stays usable at 390 px: every field and button of a color row inside the card', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openEditor();
    await page.getByRole('region', { name: 'Palette' }).scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => {
      const card = document.querySelector('.palette-card')?.getBoundingClientRect();
      if (!card) return ['no palette card'];
      return [...document.querySelectorAll('.palette-card input, .palette-card button')]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.left < card.left - 1 || box.right > card.right + 1;
        })
        .map((element) => element.getAttribute('aria-label') ?? element.textContent ?? element.id);
    });
    expect(overflow).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('region', { name: 'Palette' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'color-palette-390', false);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('edits shades in shades mode, and the saved shade gets its role on Generate Roles', async () => {
    await page.getByLabel('Panel mode').selectOption('shades');
    const palette = page.getByRole('region', { name: 'Palette' });
    await openEditor();
    const shadeName = palette.getByRole('textbox', { name: 'Color 1 shade 2 name', exact: true });
    await shadeName.waitFor();
    await shadeName.fill('Cardinal');
    await palette.getByRole('button', { name: 'Add shade to Scarlet' }).click();
    await palette.getByRole('button', { name: 'Save palette' }).click();
    await palette.getByText(/^Palette saved/).waitFor();
    await palette.scrollIntoViewIfNeeded();
    await screenshot(page, 'color-palette-shades-1280', false);
    // The last run's "Generating roles: done" is still shown: wait for this run's result.
    await page.getByRole('button', { name: 'Generate Roles' }).click();
    await page.getByText(/shades mode/).waitFor({ timeout: 30_000 });
    expect(roleNamed('Cardinal')).toBeDefined();
    expect(roleNamed('Scarlet 4')).toBeDefined();
    expect(roleNamed('Crimson')).toBeUndefined();
  });
});
