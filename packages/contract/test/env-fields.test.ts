import { describe, expect, it } from 'vitest';
import { isLocalDiscord } from '../src/env-fields.ts';

describe('isLocalDiscord', () => {
  it.each([
    ['http://127.0.0.1:4100/api', true],
    ['http://localhost:4100', true],
    ['http://[::1]:4100/api', true],
    ['https://discord.com/api', false],
    ['https://discord.com', false],
    ['http://localhost.example.com/api', false],
    ['http://127.0.0.1.nip.io/api', false],
    ['not a url', false],
    ['', false],
  ])('%s: %s', (url, local) => {
    expect(isLocalDiscord(url)).toBe(local);
  });
});
