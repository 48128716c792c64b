import type { AddressInfo } from 'node:net';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { waitFor } from '@spacecadet/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ExpiringMap } from '../src/services/replica-cache.ts';
import { dropGuildList, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * Two API replicas on one Postgres and one Redis, reached over real HTTP like behind a load
 * balancer: each keeps sessions, guild lists and configs in memory, and neither may answer
 * from a copy that a change through the other has made stale.
 */
let h: Harness;
let second: FastifyInstance;
let urls: [string, string];

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function call(
  base: string,
  method: string,
  path: string,
  auth: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

async function waitUntil(condition: () => boolean): Promise<void> {
  await waitFor('the condition', condition, { timeoutMs: 5_000, intervalMs: 5 });
}

beforeAll(async () => {
  h = await startHarness();
  second = await buildApp(h.config, { logger: false });
  urls = [await listen(h.app), await listen(second)];
});

afterAll(async () => {
  await second?.close();
  await h?.close();
});

describe('two API replicas', () => {
  it('never serve a config older than a write that has returned, whichever replica wrote it', async () => {
    const auth = await signIn(h, USERS.ada);
    const path = `/api/guilds/${GUILDS.station}/config`;
    for (const base of urls) expect((await call(base, 'GET', path, auth)).status).toBe(200);
    for (let n = 0; n < 40; n += 1) {
      const [writer, reader] = n % 2 === 0 ? urls : [urls[1], urls[0]];
      const write = await call(writer, 'PUT', path, auth, { n });
      expect(write.status).toBe(200);
      const read = await call(reader, 'GET', path, auth);
      expect(read.json).toMatchObject({ data: { n } });
    }
  });

  it('end a session on every replica when it logs out on one', async () => {
    const auth = await signIn(h, USERS.ada);
    const path = `/api/guilds/${GUILDS.station}/config`;
    // Both replicas now hold the session in memory.
    for (const base of urls) expect((await call(base, 'GET', path, auth)).status).toBe(200);
    expect((await call(urls[0], 'POST', '/api/auth/logout', auth)).status).toBe(204);
    const after = await call(urls[1], 'GET', path, auth);
    expect(after.status).toBe(401);
    expect(after.json).toMatchObject({ error: 'session_expired' });
  });

  it('stop letting a manager in on every replica once their right is gone and the list dropped', async () => {
    const auth = await signIn(h, USERS.mo);
    const path = `/api/guilds/${GUILDS.station}/config`;
    for (const base of urls) expect((await call(base, 'GET', path, auth)).status).toBe(200);
    const demoted = await fetch(
      `${h.sandbox.url}/_sandbox/guilds/${GUILDS.station}/members/${USERS.mo}/roles/${SANDBOX_IDS.roles.stationManagers}`,
      { method: 'DELETE' },
    );
    expect(demoted.ok).toBe(true);
    // Memory still says mo manages the station: the worker's drop (below, as the worker does it
    // when Discord reports the role change) is what ends it on every replica.
    expect((await call(urls[1], 'GET', path, auth)).status).toBe(200);
    await dropGuildList(h, USERS.mo);
    for (const base of urls) expect((await call(base, 'GET', path, auth)).status).toBe(403);
  });

  it('serve nothing from memory while the announcement channel is down, and start empty after', async () => {
    const auth = await signIn(h, USERS.ada);
    const path = `/api/guilds/${GUILDS.station}/config`;
    expect((await call(urls[1], 'PUT', path, auth, { v: 'before' })).status).toBe(200);
    expect((await call(urls[1], 'GET', path, auth)).json).toMatchObject({ data: { v: 'before' } });
    // Replica 2 stops hearing announcements (its subscriber connection drops and reconnects).
    const { subscriber } = second.services.replicaCache as unknown as {
      subscriber: { status: string; disconnect(reconnect: boolean): void };
    };
    subscriber.disconnect(true);
    await waitUntil(() => subscriber.status !== 'ready');
    // A write replica 2 cannot hear about: it must read Postgres, not its old copy.
    expect((await call(urls[0], 'PUT', path, auth, { v: 'during' })).status).toBe(200);
    expect((await call(urls[1], 'GET', path, auth)).json).toMatchObject({ data: { v: 'during' } });
    // Back and subscribed: it hears announcements again.
    await waitUntil(() => subscriber.status === 'ready');
    expect((await call(urls[1], 'GET', path, auth)).json).toMatchObject({ data: { v: 'during' } });
    expect((await call(urls[0], 'PUT', path, auth, { v: 'after' })).status).toBe(200);
    expect((await call(urls[1], 'GET', path, auth)).json).toMatchObject({ data: { v: 'after' } });
  });
});

describe('ExpiringMap', () => {
  it('ignores a read-through fill that began before a drop of any key', () => {
    const map = new ExpiringMap<string, number>(60_000, 10);
    const version = map.version();
    map.delete('guild');
    map.fill('guild', 1, version);
    expect(map.get('guild')).toBeUndefined();
    map.fill('guild', 2, map.version());
    expect(map.get('guild')).toBe(2);
  });

  it('expires entries and keeps at most maxEntries, dropping the oldest', async () => {
    const map = new ExpiringMap<string, number>(60_000, 2);
    map.fill('a', 1, map.version());
    map.fill('b', 2, map.version());
    map.fill('c', 3, map.version());
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 2, 3]);
    map.fill('short', 4, map.version(), 5);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(map.get('short')).toBeUndefined();
  });

  it('keeps nothing while it may not serve', () => {
    let serving = false;
    const map = new ExpiringMap<string, number>(60_000, 10, () => serving);
    map.fill('a', 1, map.version());
    expect(map.get('a')).toBeUndefined();
    serving = true;
    map.fill('a', 1, map.version());
    expect(map.get('a')).toBe(1);
  });
});
