/**
 * The headless Chromium that tests, e2e runs and benchmarks drive (the sandbox's chat view, the
 * dashboard, Lighthouse).
 */

/**
 * No sandboxing or GPU, which containers and CI machines lack, and none of Chromium's own network
 * traffic (updates, sync, QUIC), which has no internet to reach here and would only add noise.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** Where Chromium is: CHROMIUM_PATH, else the Debian package's path. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** Playwright's launch options for that Chromium (spread them, then add the test's own). */
export function chromiumLaunchOptions(): { executablePath: string; args: string[] } {
  return { executablePath: chromiumPath(), args: CHROMIUM_FLAGS };
}
