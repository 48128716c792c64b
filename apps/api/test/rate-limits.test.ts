import { ErrorBody } from '@spacecadet/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiConfig, buildApp, loadApiConfig } from '../src/app.ts';
import { type Harness, signIn, startHarness, testEnv, USERS } from './harness.ts';

/**
 * Who shares a rate-limit budget: each session its own, each client address its own, and behind
 * a proxy (TRUST_PROXY) the client's address rather than the proxy's. Every test uses addresses
 * of its own, since all the apps here count in the one Redis.
 */

const MAX = 3;
/** Four sign-ins from 127.0.0.1 fit in it. */
const EXCHANGE_MAX = 5;

let h: Harness;
let ada: string;
let adaAgain: string;
let mo: string;
let nia: string;
const extraApps: FastifyInstance[] = [];

beforeAll(async () => {
  h = await startHarness((config) => ({
    ...config,
    rateLimit: { ...config.rateLimit, max: MAX, exchangeMax: EXCHANGE_MAX },
  }));
  // Two sessions of one user and two of others, all signed in from 127.0.0.1.
  [ada, adaAgain] = [await signIn(h, USERS.ada), await signIn(h, USERS.ada)];
  mo = await signIn(h, USERS.mo);
  nia = await signIn(h, USERS.nia);
});
afterAll(async () => {
  await Promise.all(extraApps.map((app) => app.close()));
  await h?.close();
});

async function appWith(config: ApiConfig): Promise<FastifyInstance> {
  const app = await buildApp(config, { logger: false });
  extraApps.push(app);
  await app.ready();
  return app;
}

/** The statuses of `count` requests to `/api/auth/session`, a cheap signed-in route. */
async function statuses(
  app: FastifyInstance,
  count: number,
  request: { authorization?: string; remoteAddress: string; forwardedFor?: string },
): Promise<number[]> {
  const options: InjectOptions = {
    url: '/api/auth/session',
    remoteAddress: request.remoteAddress,
    headers: {
      ...(request.authorization === undefined ? {} : { authorization: request.authorization }),
      ...(request.forwardedFor === undefined ? {} : { 'x-forwarded-for': request.forwardedFor }),
    },
  };
  const answers: number[] = [];
  for (let i = 0; i < count; i++) answers.push((await app.inject(options)).statusCode);
  return answers;
}

describe('signed-in requests', () => {
  it('each session from one address gets its own budget, and so does the address', async () => {
    const remoteAddress = '10.20.0.1';
    expect(await statuses(h.app, MAX + 1, { authorization: ada, remoteAddress })).toEqual([
      200, 200, 200, 429,
    ]);
    // Another session of the same user, from the same address: untouched by the first's spending.
    expect(await statuses(h.app, MAX + 1, { authorization: adaAgain, remoteAddress })).toEqual([
      200, 200, 200, 429,
    ]);
    // Nobody signed in at that address has spent anything yet.
    expect(await statuses(h.app, MAX + 1, { remoteAddress })).toEqual([401, 401, 401, 429]);
  });

  it('a session keeps its budget across addresses (a phone moving between networks)', async () => {
    expect(await statuses(h.app, 2, { authorization: mo, remoteAddress: '10.21.0.1' })).toEqual([200, 200]);
    expect(await statuses(h.app, 2, { authorization: mo, remoteAddress: '10.21.0.2' })).toEqual([200, 429]);
  });

  it('made-up tokens spend their address budget, whatever the token', async () => {
    const remoteAddress = '10.22.0.1';
    const answers: number[] = [];
    for (let i = 0; i < MAX + 2; i++) {
      answers.push(...(await statuses(h.app, 1, { authorization: `Bearer made-up-${i}`, remoteAddress })));
    }
    expect(answers).toEqual([401, 401, 401, 429, 429]);
    // A real session from that address is not caught in the flood.
    expect(await statuses(h.app, 1, { authorization: nia, remoteAddress })).toEqual([200]);
  });

  it('the code exchange stays limited per address, even with a session token', async () => {
    const exchange = (authorization: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/discord/exchange',
        payload: { code: 'x', code_verifier: 'v'.repeat(43) },
        headers: { authorization },
        remoteAddress: '10.23.0.1',
      });
    const answers: number[] = [];
    for (const token of [ada, adaAgain, mo, nia, ada, mo]) answers.push((await exchange(token)).statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('answers 429 in the API error shape, with Retry-After', async () => {
    const remoteAddress = '10.24.0.1';
    await statuses(h.app, MAX, { remoteAddress });
    const limited = await h.app.inject({ url: '/api/auth/session', remoteAddress });
    expect(limited.statusCode).toBe(429);
    const body = ErrorBody.strict().parse(limited.json());
    expect(body.error).toBe('rate_limited');
    expect(body.message).toMatch(/^Too many requests\. Try again in \d+ (second|minute)s?\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('RATE_LIMIT_MAX', () => {
  it('sets the budget per window', async () => {
    const config = loadApiConfig({ ...testEnv(h.database, h.redis, h.sandbox), RATE_LIMIT_MAX: '5' });
    expect(config.rateLimit.max).toBe(5);
    const app = await appWith(config);
    const answers = await statuses(app, 6, { remoteAddress: '10.30.0.1' });
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
    const first = await app.inject({ url: '/api/auth/session', remoteAddress: '10.30.0.2' });
    expect(first.headers['x-ratelimit-limit']).toBe('5');
  });
});

describe('behind a proxy', () => {
  const viaProxy = { remoteAddress: '10.40.0.1' };

  it('without TRUST_PROXY, X-Forwarded-For is ignored: every client of the proxy shares its budget', async () => {
    expect(h.config.trustProxy).toBe(false);
    expect(await statuses(h.app, 2, { ...viaProxy, forwardedFor: '203.0.113.1' })).toEqual([401, 401]);
    expect(await statuses(h.app, 2, { ...viaProxy, forwardedFor: '203.0.113.2' })).toEqual([401, 429]);
  });

  it('with TRUST_PROXY=true, each forwarded client gets its own budget', async () => {
    const app = await appWith({ ...h.config, trustProxy: trustProxyFromEnv('true') });
    const proxy = { remoteAddress: '10.41.0.1' };
    expect(await statuses(app, MAX + 1, { ...proxy, forwardedFor: '203.0.113.11' })).toEqual([
      401, 401, 401, 429,
    ]);
    expect(await statuses(app, MAX, { ...proxy, forwardedFor: '203.0.113.12' })).toEqual([401, 401, 401]);
  });

  it('with TRUST_PROXY=1, the client is the address the one proxy saw, not what the client claims', async () => {
    const app = await appWith({ ...h.config, trustProxy: trustProxyFromEnv('1') });
    const proxy = { remoteAddress: '10.42.0.1' };
    expect(await statuses(app, MAX, { ...proxy, forwardedFor: '203.0.113.21' })).toEqual([401, 401, 401]);
    expect(await statuses(app, 1, { ...proxy, forwardedFor: '203.0.113.22' })).toEqual([401]);
    // The proxy appends the address it saw; what the client put before it is not believed.
    expect(await statuses(app, 1, { ...proxy, forwardedFor: '198.51.100.7, 203.0.113.21' })).toEqual([429]);
  });

  it('with TRUST_PROXY set to the proxy address, only that proxy is believed', async () => {
    const app = await appWith({ ...h.config, trustProxy: trustProxyFromEnv('10.43.0.1/32') });
    expect(await statuses(app, MAX, { remoteAddress: '10.43.0.1', forwardedFor: '203.0.113.31' })).toEqual([
      401, 401, 401,
    ]);
    expect(await statuses(app, 1, { remoteAddress: '10.43.0.1', forwardedFor: '203.0.113.32' })).toEqual([
      401,
    ]);
    // Another peer claiming to forward for a fresh client is counted as itself.
    const direct = { remoteAddress: '10.43.0.2' };
    expect(await statuses(app, MAX, { ...direct, forwardedFor: '203.0.113.41' })).toEqual([401, 401, 401]);
    expect(await statuses(app, 1, { ...direct, forwardedFor: '203.0.113.42' })).toEqual([429]);
  });
});

/** TRUST_PROXY as the API reads it. */
function trustProxyFromEnv(value: string): ApiConfig['trustProxy'] {
  return loadApiConfig({ DISCORD_API_BASE: 'http://127.0.0.1:1/api', TRUST_PROXY: value }).trustProxy;
}
