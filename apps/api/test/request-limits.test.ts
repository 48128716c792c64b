import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { type RouteName, routes } from '@spacecadet/contract';
import { guildConfigs, levelingRoles } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCODED_BODY_MESSAGE } from '../src/app.ts';
import { NO_BODY_MESSAGE } from '../src/routes/define.ts';
import { GUILDS, type Harness, signIn, startHarness, storedState, USERS } from './harness.ts';
import { sampleRequest } from './samples.ts';

/** What a client may send, and how slowly: bodies a route does not take, encodings, stalls. */

const HEADERS_MS = 500;
const REQUEST_MS = 1_500;

let h: Harness;
let ada: string;
let port: number;
const station = `/api/guilds/${GUILDS.station}`;

beforeAll(async () => {
  h = await startHarness((config) => ({
    ...config,
    http: { ...config.http, headersMs: HEADERS_MS, requestMs: REQUEST_MS },
  }));
  ada = await signIn(h, USERS.ada);
  // Something for the destructive routes to destroy.
  for (const name of ['createLevelingRole', 'createBoost', 'initPersonalityRoles', 'putConfig'] as const) {
    const response = await h.app.inject({
      ...sampleRequest(name, GUILDS.station),
      headers: { authorization: ada },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const address = h.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  port = address.port;
});
afterAll(async () => {
  await h?.close();
});

const snapshot = () => storedState(h);

const BODYLESS_ACTIONS = (Object.keys(routes) as RouteName[]).filter(
  (name) => routes[name].method !== 'GET' && !('body' in routes[name]),
);

describe('routes that take no body', () => {
  it('include the destructive actions', () => {
    expect(BODYLESS_ACTIONS).toEqual(
      expect.arrayContaining([
        'resetLevelingAll',
        'resetLevelingConfig',
        'resetColorRoles',
        'resetPersonalityRoles',
        'generateColorRoles',
        'postColorPanel',
        'refreshPersonalityRoles',
        'syncLevelingRoles',
        'resendLevelingOverview',
        'pruneLeavers',
        'deleteLevelingRole',
        'deleteBoost',
        'logout',
        'eraseMemberData',
      ]),
    );
  });

  it.each(BODYLESS_ACTIONS)('%s refuses a body and does nothing', async (name) => {
    const { method, url } = sampleRequest(name, GUILDS.station);
    const before = await snapshot();
    for (const payload of ['{}', '{"confirm":true}', 'null', '[]', '"reset"', '0', ' {"a":1} ']) {
      const response = await h.app.inject({
        method,
        url,
        headers: { authorization: ada, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, `${payload}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_input', message: NO_BODY_MESSAGE });
    }
    // A body without a content type is not JSON at all.
    const untyped = await h.app.inject({ method, url, headers: { authorization: ada }, payload: 'junk' });
    expect(untyped.statusCode, untyped.body).toBe(415);
    expect(await snapshot()).toBe(before);
  });

  it('still check the session first', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: `${station}/leveling/reset-all`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(401);
  });

  it('work without a body, or with an empty one sent as JSON', async () => {
    const generate = await h.app.inject({
      method: 'POST',
      url: `${station}/color-roles/generate-roles`,
      headers: { authorization: ada },
    });
    expect(generate.statusCode, generate.body).toBe(202);
    for (const payload of ['', ' \n']) {
      const resetConfig = await h.app.inject({
        method: 'POST',
        url: `${station}/leveling/reset-config`,
        headers: { authorization: ada, 'content-type': 'application/json' },
        payload,
      });
      expect(resetConfig.statusCode, resetConfig.body).toBe(200);
    }
    const resetAll = await h.app.inject({
      method: 'POST',
      url: `${station}/leveling/reset-all`,
      headers: { authorization: ada, 'content-type': 'application/json; charset=utf-8' },
      payload: '',
    });
    expect(resetAll.statusCode, resetAll.body).toBe(204);
    const roles = await h.database.db
      .select()
      .from(levelingRoles)
      .where(eq(levelingRoles.guildId, GUILDS.station));
    expect(roles).toEqual([]);
  });
});

describe('encoded bodies', () => {
  const config = `${station}/config`;
  const putConfig = (encoding: string, payload: string | Buffer) =>
    h.app.inject({
      method: 'PUT',
      url: config,
      headers: { authorization: ada, 'content-type': 'application/json', 'content-encoding': encoding },
      payload,
    });

  it.each([
    ['gzip', '{"mislabelled":true}'],
    ['gzip', gzipSync('{"compressed":true}')],
    ['GZIP', '{"mislabelled":true}'],
    ['deflate', '{"mislabelled":true}'],
    ['br', '{"mislabelled":true}'],
    ['identity, gzip', '{"mislabelled":true}'],
    ['x-unknown', '{"mislabelled":true}'],
  ])('%s is refused with 415 and nothing is applied', async (encoding, payload) => {
    const before = await snapshot();
    const response = await putConfig(encoding, payload);
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json()).toEqual({ error: 'unsupported_media_type', message: ENCODED_BODY_MESSAGE });
    expect(await snapshot()).toBe(before);
  });

  it('also on a route that takes no body', async () => {
    const before = await snapshot();
    const response = await h.app.inject({
      method: 'POST',
      url: `${station}/leveling/reset-all`,
      headers: { authorization: ada, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync('{}'),
    });
    expect(response.statusCode, response.body).toBe(415);
    expect(await snapshot()).toBe(before);
  });

  it('identity changes nothing and is accepted', async () => {
    for (const encoding of ['identity', 'Identity']) {
      const response = await putConfig(encoding, `{"encoding":"${encoding}"}`);
      expect(response.statusCode, response.body).toBe(200);
    }
    const [row] = await h.database.db
      .select()
      .from(guildConfigs)
      .where(eq(guildConfigs.guildId, GUILDS.station));
    expect(row?.data).toMatchObject({ encoding: 'Identity' });
  });
});

describe('slow clients', () => {
  /**
   * Sends `request` over a real socket and then nothing more; resolves with what the server
   * answered once it closes the connection, failing if it is still open after `withinMs`.
   */
  function stall(request: string, withinMs: number): Promise<{ answer: string; elapsedMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      let answer = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      const deadline = setTimeout(() => {
        socket.destroy();
        reject(new Error(`still open after ${withinMs} ms; got ${JSON.stringify(answer)}`));
      }, withinMs);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        answer += chunk;
      });
      socket.on('close', () => {
        clearTimeout(deadline);
        resolve({ answer, elapsedMs: Date.now() - started });
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
      });
    });
  }

  function expectTimeoutAnswer(answer: string) {
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 408 /);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body)).toEqual({ error: 'invalid_input', message: expect.any(String) });
  }

  it('a body that stops halfway is answered 408 and closed once the request time is up', async () => {
    const before = await snapshot();
    const body = '{"slow":"client","padding":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}';
    const request =
      `PUT ${station}/config HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${ada}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, body.length / 2)}`;
    const { answer, elapsedMs } = await stall(request, REQUEST_MS + 3_000);
    expectTimeoutAnswer(answer);
    expect(elapsedMs).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(await snapshot()).toBe(before);
  });

  it('headers that never end are answered 408 and closed once the header time is up', async () => {
    const { answer, elapsedMs } = await stall(
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a',
      HEADERS_MS + 3_000,
    );
    expectTimeoutAnswer(answer);
    expect(elapsedMs).toBeLessThan(REQUEST_MS);
  });

  it('a prompt request on the same server is unaffected', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(response.status).toBe(200);
  });
});
