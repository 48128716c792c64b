/**
 * Chromium flags for the headless browser that tests, e2e runs and benchmarks drive (the
 * sandbox's chat view, the dashboard, Lighthouse): no sandboxing or GPU, which containers and
 * CI machines lack, and none of Chromium's own network traffic (updates, sync, QUIC), which has
 * no internet to reach here and would only add noise.
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
