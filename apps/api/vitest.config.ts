import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Without TEST_DATABASE_URL / TEST_REDIS_URL the db helpers start containers: slow first time.
    hookTimeout: 120_000,
    testTimeout: 60_000,
  },
});
