import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests drive a real discord.js client, Postgres, Redis and child processes.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
