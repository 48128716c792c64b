import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Without TEST_DATABASE_URL / TEST_REDIS_URL the helpers start containers, which can take
    // far longer than vitest's 10 s hook default on a cold image pull.
    hookTimeout: 120_000,
    testTimeout: 60_000,
  },
});
