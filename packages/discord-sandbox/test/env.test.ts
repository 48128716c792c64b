import { EnvError } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { loadSandboxEnv } from '../src/env.ts';

describe('loadSandboxEnv', () => {
  it('defaults to 127.0.0.1:4100 with no public URL, blank values counting as unset', () => {
    expect(loadSandboxEnv({})).toEqual({ port: 4100, host: '127.0.0.1' });
    expect(loadSandboxEnv({ SANDBOX_PORT: ' ', SANDBOX_HOST: '', SANDBOX_PUBLIC_URL: '' })).toEqual({
      port: 4100,
      host: '127.0.0.1',
    });
  });

  it('reads port, host and public URL', () => {
    const env = { SANDBOX_PORT: '0', SANDBOX_HOST: '0.0.0.0', SANDBOX_PUBLIC_URL: 'http://sandbox:4100' };
    expect(loadSandboxEnv(env)).toEqual({ port: 0, host: '0.0.0.0', publicUrl: 'http://sandbox:4100' });
  });

  it('names every bad variable', () => {
    const read = () => loadSandboxEnv({ SANDBOX_PORT: '70000', SANDBOX_PUBLIC_URL: 'sandbox:4100' });
    expect(read).toThrow(EnvError);
    expect(read).toThrow(
      /SANDBOX_PORT: must be a port number.*"70000"[\s\S]*SANDBOX_PUBLIC_URL: must be an http/,
    );
    expect(() => loadSandboxEnv({ SANDBOX_PORT: 'eighty' })).toThrow(/SANDBOX_PORT/);
  });

  it("reads Discord's global rate limit, off unless set", () => {
    expect(loadSandboxEnv({ SANDBOX_GLOBAL_RATE_LIMIT: '50' })).toMatchObject({ globalRateLimit: 50 });
    expect(loadSandboxEnv({ SANDBOX_GLOBAL_RATE_LIMIT: ' ' })).not.toHaveProperty('globalRateLimit');
    for (const bad of ['0', 'fifty', '2.5']) {
      expect(() => loadSandboxEnv({ SANDBOX_GLOBAL_RATE_LIMIT: bad })).toThrow(/SANDBOX_GLOBAL_RATE_LIMIT/);
    }
  });

  it("reads whether Discord's per-route buckets are enforced, off unless set", () => {
    expect(loadSandboxEnv({ SANDBOX_ROUTE_RATE_LIMITS: '1' })).toMatchObject({ routeRateLimits: true });
    expect(loadSandboxEnv({ SANDBOX_ROUTE_RATE_LIMITS: '0' })).toMatchObject({ routeRateLimits: false });
    expect(loadSandboxEnv({})).not.toHaveProperty('routeRateLimits');
    expect(() => loadSandboxEnv({ SANDBOX_ROUTE_RATE_LIMITS: 'yes' })).toThrow(/SANDBOX_ROUTE_RATE_LIMITS/);
  });

  it("reads max_concurrency for the session start limit, the fixture's unless set", () => {
    expect(loadSandboxEnv({ SANDBOX_MAX_CONCURRENCY: '16' })).toMatchObject({ maxConcurrency: 16 });
    expect(loadSandboxEnv({})).not.toHaveProperty('maxConcurrency');
    for (const bad of ['0', 'one', '1.5']) {
      expect(() => loadSandboxEnv({ SANDBOX_MAX_CONCURRENCY: bad })).toThrow(/SANDBOX_MAX_CONCURRENCY/);
    }
  });
});
