import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests drive a real discord.js client over HTTP and WebSocket; give a loaded CI room.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
