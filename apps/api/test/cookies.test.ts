import { describe, expect, it } from 'vitest';
import { cookieSecurity, setCookieHeader } from '../src/services/cookies.ts';

describe('cookieSecurity', () => {
  it('is Secure exactly when the public address of the API is https', () => {
    expect(cookieSecurity({ publicApiUrl: 'https://api.cadet.example.org' })).toEqual({ secure: true });
    expect(cookieSecurity({ publicApiUrl: 'HTTPS://API.example.org:8443' })).toEqual({ secure: true });
    expect(cookieSecurity({ publicApiUrl: 'http://127.0.0.1:4000' })).toEqual({ secure: false });
    // A host name that merely contains "https" is not HTTPS.
    expect(cookieSecurity({ publicApiUrl: 'http://https.example.org' })).toEqual({ secure: false });
  });
});

describe('setCookieHeader', () => {
  const options = { path: '/admin/queues', maxAgeSec: 3600, sameSite: 'Strict' } as const;

  it('writes an HttpOnly cookie with its path, age and SameSite, Secure behind https', () => {
    expect(setCookieHeader({ publicApiUrl: 'https://api.example.org' }, 'pass', 'abc', options)).toBe(
      'pass=abc; Path=/admin/queues; Max-Age=3600; HttpOnly; SameSite=Strict; Secure',
    );
    expect(setCookieHeader({ publicApiUrl: 'http://127.0.0.1:4000' }, 'pass', 'abc', options)).toBe(
      'pass=abc; Path=/admin/queues; Max-Age=3600; HttpOnly; SameSite=Strict',
    );
  });

  it('clears with Max-Age=0 and never writes a negative or fractional age', () => {
    const cleared = setCookieHeader({ publicApiUrl: 'https://api.example.org' }, 'pass', '', {
      ...options,
      maxAgeSec: -5.5,
    });
    expect(cleared).toContain('Max-Age=0;');
    expect(
      setCookieHeader({ publicApiUrl: 'http://x.test' }, 'p', 'v', { ...options, maxAgeSec: 9.9 }),
    ).toContain('Max-Age=9;');
  });
});
