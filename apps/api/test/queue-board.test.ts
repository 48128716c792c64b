import {
  jobIdFor,
  jobQueueName,
  queueViewTicketKey,
  routePath,
  routes,
  shardOfGuild,
} from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { QUEUE_VIEW_COOKIE, QUEUE_VIEW_PATH } from '../src/plugins/queue-board.ts';
import { hashSessionToken } from '../src/services/crypto.ts';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;

beforeAll(async () => {
  // Two shards: the board lists both shards' queues.
  h = await startHarness((config) => ({ ...config, shardCount: 2 }));
  await h.app.services.queue
    .forGuild(GUILDS.station)
    .add(
      'color-roles.generate',
      { guild_id: GUILDS.station, requested_by: USERS.ada },
      { jobId: jobIdFor('color-roles.generate', GUILDS.station) },
    );
});
afterAll(async () => {
  await h?.close();
});

async function ticketUrl(authorization: string, app: FastifyInstance = h.app): Promise<URL> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/queue-view',
    headers: { authorization },
  });
  expect(response.statusCode, response.body).toBe(200);
  return new URL(response.json<{ url: string }>().url);
}

/** Opens the ticket's page; returns the answer and the pass cookie it set (name=value). */
async function openBoard(url: URL, app: FastifyInstance = h.app) {
  const response = await app.inject({ url: `${url.pathname}${url.search}` });
  const setCookie = response.headers['set-cookie'];
  const header = Array.isArray(setCookie) ? setCookie.join('\n') : (setCookie ?? '');
  return { response, header, cookie: header.split(';')[0] ?? '' };
}

const queuesApi = (cookie?: string, app: FastifyInstance = h.app) =>
  app.inject({
    url: `${QUEUE_VIEW_PATH}/api/queues`,
    ...(cookie === undefined ? {} : { headers: { cookie } }),
  });

describe('jobs with two shards', () => {
  it("queues a guild's job in its shard's queue only, and reads its status from there", async () => {
    const authorization = await signIn(h, USERS.ada);
    const url = routePath(routes.syncLevelingRoles, { guildId: GUILDS.station });
    const queued = await h.app.inject({ method: 'POST', url, headers: { authorization } });
    expect(queued.statusCode, queued.body).toBe(202);
    const jobId = queued.json<{ job_id: string }>().job_id;
    const shard = shardOfGuild(GUILDS.station, 2);
    expect(await h.app.services.queue.forShard(shard).getJobState(jobId)).toBe('waiting');
    expect(await h.app.services.queue.forShard(1 - shard).getJobState(jobId)).toBe('unknown');
    const status = await h.app.inject({ url: `/api/jobs/${jobId}`, headers: { authorization } });
    expect(status.json()).toMatchObject({ id: jobId, state: 'waiting' });
    await h.app.services.queue.forShard(shard).remove(jobId);
  });
});

describe('queue view (bull-board) for the platform owner', () => {
  it('gives the owner a one-time ticket that opens the board and sets a strict, HttpOnly pass cookie', async () => {
    const owner = await signIn(h, USERS.ada);
    const url = await ticketUrl(owner);
    expect(`${url.origin}${url.pathname}`).toBe(`${h.config.publicApiUrl}${QUEUE_VIEW_PATH}`);
    const ticket = url.searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Stored hashed, for 60 s at most.
    const probe = h.app.services.redis;
    expect(await probe.get(queueViewTicketKey(ticket))).toBeNull();
    const ttl = await probe.ttl(queueViewTicketKey(hashSessionToken(ticket)));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);

    const { response, header, cookie } = await openBoard(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<title>Space Cadet jobs</title>');
    expect(response.body).toContain(`<base href="${QUEUE_VIEW_PATH}/" />`);
    expect(cookie.startsWith(`${QUEUE_VIEW_COOKIE}=`)).toBe(true);
    expect(header).toContain(`Path=${QUEUE_VIEW_PATH}`);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    const maxAge = Number(/Max-Age=(\d+)/.exec(header)?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(h.config.sessionTtlSec);

    // The board's own API calls and assets then pass with the cookie alone.
    const queues = await queuesApi(cookie);
    expect(queues.statusCode).toBe(200);
    const body = queues.json<{
      queues: Array<{ name: string; readOnlyMode: boolean; counts: Record<string, number> }>;
    }>();
    expect(body.queues.map((queue) => queue.name).sort()).toEqual([jobQueueName(0), jobQueueName(1)]);
    const stationQueue = jobQueueName(shardOfGuild(GUILDS.station, 2));
    for (const queue of body.queues) {
      expect(queue.readOnlyMode).toBe(true);
      expect(queue.counts.waiting).toBe(queue.name === stationQueue ? 1 : 0);
    }
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(response.body)?.[1];
    expect(script).toBeDefined();
    const asset = await h.app.inject({ url: `${QUEUE_VIEW_PATH}/${script}`, headers: { cookie } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    // A page of the board's client-side router also serves the HTML.
    const page = await h.app.inject({
      url: `${QUEUE_VIEW_PATH}/queue/${encodeURIComponent(jobQueueName(0))}`,
      headers: { cookie },
    });
    expect(page.statusCode).toBe(200);

    // Read-only: nothing can be emptied or obliterated from a browser tab.
    const obliterate = await h.app.inject({
      method: 'PUT',
      url: `${QUEUE_VIEW_PATH}/api/queues/${encodeURIComponent(jobQueueName(0))}/obliterate`,
      headers: { cookie },
    });
    expect(obliterate.statusCode).toBe(405);
    expect(await h.app.services.queue.forGuild(GUILDS.station).count()).toBe(1);
  });

  it('spends a ticket once', async () => {
    const url = await ticketUrl(await signIn(h, USERS.ada));
    expect((await openBoard(url)).response.statusCode).toBe(200);
    const again = await openBoard(url);
    expect(again.response.statusCode).toBe(401);
    expect(again.response.json()).toMatchObject({ error: 'not_authenticated' });
    expect(again.header).toBe('');
  });

  it('refuses the ticket route to a signed-in user who is not the owner (403) and to no session (401)', async () => {
    const member = await signIn(h, USERS.mo);
    const refused = await h.app.inject({
      method: 'POST',
      url: '/api/admin/queue-view',
      headers: { authorization: member },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'forbidden',
      message: 'Only the platform owner may open the queue view',
    });
    const anonymous = await h.app.inject({ method: 'POST', url: '/api/admin/queue-view' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: 'not_authenticated' });
  });

  it('answers 401 under /admin/queues without a valid pass cookie, a made-up one or a bad ticket', async () => {
    for (const url of [
      QUEUE_VIEW_PATH,
      `${QUEUE_VIEW_PATH}/api/queues`,
      `${QUEUE_VIEW_PATH}/static/favicon-32x32.png`,
    ]) {
      const response = await h.app.inject({ url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toMatchObject({ error: 'not_authenticated' });
    }
    expect((await queuesApi(`${QUEUE_VIEW_COOKIE}=${'a'.repeat(43)}`)).statusCode).toBe(401);
    expect((await queuesApi(`${QUEUE_VIEW_COOKIE}=../../etc`)).statusCode).toBe(401);
    const guessed = await h.app.inject({ url: `${QUEUE_VIEW_PATH}?ticket=${'b'.repeat(43)}` });
    expect(guessed.statusCode).toBe(401);
  });

  it('ends access when the session logs out', async () => {
    const owner = await signIn(h, USERS.ada);
    const { cookie } = await openBoard(await ticketUrl(owner));
    expect((await queuesApi(cookie)).statusCode).toBe(200);
    const logout = await h.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: owner },
    });
    expect(logout.statusCode).toBe(204);
    const after = await queuesApi(cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ error: 'session_expired' });
    const page = await h.app.inject({ url: QUEUE_VIEW_PATH, headers: { cookie } });
    expect(page.statusCode).toBe(401);
  });

  it('refuses a ticket whose session logged out before it was spent', async () => {
    const owner = await signIn(h, USERS.ada);
    const url = await ticketUrl(owner);
    await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: owner } });
    const { response, header } = await openBoard(url);
    expect(response.statusCode).toBe(401);
    expect(header).toBe('');
  });

  it('answers 403 to a live pass once its user is no longer the owner', async () => {
    const { cookie } = await openBoard(await ticketUrl(await signIn(h, USERS.ada)));
    // Another API process of the same deployment, restarted with a different OWNER_USER_ID.
    const moved = await buildApp({ ...h.config, ownerUserId: USERS.mo }, { logger: false });
    try {
      const response = await queuesApi(cookie, moved);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: 'forbidden' });
      expect((await queuesApi(cookie)).statusCode).toBe(200);
    } finally {
      await moved.close();
    }
  });

  it('marks the pass cookie Secure behind HTTPS (an https PUBLIC_API_URL), and not over http', async () => {
    const owner = await signIn(h, USERS.ada);
    expect((await openBoard(await ticketUrl(owner))).header).not.toMatch(/;\s*Secure/i);
    const behindHttps = await buildApp(
      { ...h.config, publicApiUrl: 'https://api.cadet.example.org' },
      { logger: false },
    );
    try {
      const url = await ticketUrl(owner, behindHttps);
      expect(url.origin).toBe('https://api.cadet.example.org');
      const { response, header } = await openBoard(url, behindHttps);
      expect(response.statusCode).toBe(200);
      expect(header).toMatch(/; Secure(;|$)/);
      expect(header).toContain('HttpOnly');
    } finally {
      await behindHttps.close();
    }
  });

  it('opens for nobody when no owner is configured', async () => {
    const owner = await signIn(h, USERS.ada);
    const { cookie } = await openBoard(await ticketUrl(owner));
    const ownerless = await buildApp({ ...h.config, ownerUserId: null }, { logger: false });
    try {
      const ticket = await ownerless.inject({
        method: 'POST',
        url: '/api/admin/queue-view',
        headers: { authorization: owner },
      });
      expect(ticket.statusCode).toBe(403);
      expect((await queuesApi(cookie, ownerless)).statusCode).toBe(403);
    } finally {
      await ownerless.close();
    }
  });

  it('keeps the ticket out of the request log', async () => {
    const lines: Array<{ msg?: string; req?: { url?: string } }> = [];
    const logged = await buildApp(h.config, {
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    try {
      const url = await ticketUrl(await signIn(h, USERS.ada), logged);
      const ticket = url.searchParams.get('ticket') ?? '';
      const { response } = await openBoard(url, logged);
      expect(response.statusCode).toBe(200);
      const urls = lines.flatMap((line) => (line.req?.url === undefined ? [] : [line.req.url]));
      expect(urls).toContain(`${QUEUE_VIEW_PATH}?ticket=[redacted]`);
      expect(JSON.stringify(lines)).not.toContain(ticket);
    } finally {
      await logged.close();
    }
  });
});
