import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests drive a real discord.js client, Postgres, Redis and child processes.
    // Deadlines against hangs, not measures of speed: a busy machine must not fail a test.
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
