import { describe, expect, it } from 'vitest';
import { hashSessionToken, newSessionToken, TokenCipher } from '../src/services/crypto.ts';
import { canManageGuild } from '../src/services/guild-access.ts';

describe('TokenCipher', () => {
  const cipher = new TokenCipher('a-session-secret-of-at-least-32-chars!');

  it('round-trips, with a fresh IV each time', () => {
    const a = cipher.encrypt('discord-access-token');
    const b = cipher.encrypt('discord-access-token');
    expect(a).not.toBe(b);
    expect(a).not.toContain('discord-access-token');
    expect(cipher.decrypt(a)).toBe('discord-access-token');
  });

  it('refuses tampered values and values sealed under another secret', () => {
    const sealed = cipher.encrypt('token');
    const [version, iv, tag, data] = sealed.split('.');
    const flipped = `${data?.[0] === 'A' ? 'B' : 'A'}${data?.slice(1)}`;
    expect(() => cipher.decrypt([version, iv, tag, flipped].join('.'))).toThrow();
    expect(() => new TokenCipher('another-secret-that-is-also-long-enough').decrypt(sealed)).toThrow();
    expect(() => cipher.decrypt('plain')).toThrow(/format/);
  });
});

describe('session tokens', () => {
  it('are 256-bit, URL-safe and stored as sha256 hex', () => {
    const token = newSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashSessionToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(newSessionToken()).not.toBe(token);
  });
});

describe('canManageGuild', () => {
  it.each([
    [{ owner: true, permissions: '0' }, true],
    [{ owner: false, permissions: '8' }, true],
    [{ owner: false, permissions: '32' }, true],
    [{ owner: false, permissions: String((1n << 40n) | 8n) }, true],
    [{ owner: false, permissions: String(1n << 40n) }, false],
    [{ owner: false, permissions: '2048' }, false],
    [{ owner: false, permissions: 'not a number' }, false],
  ])('%j -> %s', (guild, expected) => {
    expect(canManageGuild(guild)).toBe(expected);
  });
});
