import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './stack.ts';

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown; failureSummary: string | undefined }>;
}

/** Runs axe-core in the page; returns serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through DevTools: an inline <script> would be refused by the dashboard's CSP.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/**
 * Signs in through the sandbox authorize PAGE by clicking the user, then waits for the dashboard.
 * The browser's sign-in (its refresh cookie) is dropped first, whoever it was: tabs of one browser
 * share it, so a new tab would otherwise open signed in as the last user.
 */
export async function signInAs(page: Page, dashboardUrl: string, userId: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${dashboardUrl}/`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).first().click();
  await page.locator(`a.pick[data-user-id="${userId}"]`).click();
  await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
}
