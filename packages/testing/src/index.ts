/** What tests, the e2e stack and the benchmarks of every package share (README). */
export { CHROMIUM_FLAGS, chromiumLaunchOptions, chromiumPath } from './chromium.ts';
export { freePort } from './free-port.ts';
export { productionTestEnv } from './production-env.ts';
export { type CollectedRun, runCollecting } from './run-collecting.ts';
export { TEST_DASHBOARD_URL, type TestDiscord, testStackEnv } from './stack-env.ts';
export { type WaitForOptions, waitFor } from './wait-for.ts';
