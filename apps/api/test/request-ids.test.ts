import { GuildJobPayload, routePath, routes } from '@spacecadet/contract';
import { botGuilds } from '@spacecadet/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/** The x-request-id every answer carries, and that the jobs a request queues carry along. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let h: Harness;
let ada: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  // A second guild ada manages with the bot in it, for two jobs at once.
  await h.database.db.insert(botGuilds).values({ guildId: GUILDS.quiet, name: 'Quiet Quarters' });
});
afterAll(async () => {
  await h?.close();
});

describe('the x-request-id header', () => {
  it('echoes a short plain id the client sent', async () => {
    for (const id of ['bug-report-42', 'a', 'trace:01HZX.9_z', 'x'.repeat(64)]) {
      const response = await h.app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
      expect(response.headers['x-request-id']).toBe(id);
    }
  });

  it('replaces anything else with a fresh UUID', async () => {
    const unsafe = ['x'.repeat(65), 'two words', '{"level":60,"msg":"forged"}', '<script>', 'ünïcode', ''];
    const seen = new Set<string>();
    for (const id of unsafe) {
      const response = await h.app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
      const answered = String(response.headers['x-request-id']);
      expect(answered).toMatch(UUID);
      seen.add(answered);
    }
    expect(seen.size).toBe(unsafe.length);
  });

  it('gives a request without one a fresh UUID', async () => {
    const [first, second] = await Promise.all([
      h.app.inject({ url: '/healthz' }),
      h.app.inject({ url: '/healthz' }),
    ]);
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it('is on errors too: 401, 404, 400 and the router’s own refusals', async () => {
    const answers = await Promise.all([
      h.app.inject({ url: '/api/auth/session', headers: { 'x-request-id': 'err-401' } }),
      h.app.inject({ url: '/api/nothing-here', headers: { 'x-request-id': 'err-404' } }),
      h.app.inject({
        method: 'PUT',
        url: `/api/guilds/${GUILDS.station}/config`,
        headers: { authorization: ada, 'x-request-id': 'err-400', 'content-type': 'application/json' },
        payload: '{"not":',
      }),
      h.app.inject({ url: '/api/guilds/%E0%A4%A/config', headers: { 'x-request-id': 'err-bad-url' } }),
    ]);
    expect(answers.map((answer) => [answer.statusCode, answer.headers['x-request-id']])).toEqual([
      [401, 'err-401'],
      [404, 'err-404'],
      [400, 'err-400'],
      [400, 'err-bad-url'],
    ]);
  });
});

describe('a job queued by a request', () => {
  const sync = routePath(routes.syncLevelingRoles, { guildId: GUILDS.station });

  async function queuedPayload(headers: Record<string, string>) {
    const response = await h.app.inject({
      method: 'POST',
      url: sync,
      headers: { authorization: ada, ...headers },
    });
    expect(response.statusCode, response.body).toBe(202);
    const jobId = response.json<{ job_id: string }>().job_id;
    const job = await h.app.services.queue.forShard(0).getJob(jobId);
    // Removed, so the next request queues a new job rather than joining this one.
    await job?.remove();
    return { payload: GuildJobPayload.parse(job?.data), header: response.headers['x-request-id'] };
  }

  it('carries the request id the client sent', async () => {
    const { payload, header } = await queuedPayload({ 'x-request-id': 'bug-report-7' });
    expect(header).toBe('bug-report-7');
    expect(payload).toEqual({
      guild_id: GUILDS.station,
      requested_by: USERS.ada,
      request_id: 'bug-report-7',
      // The request's history entry: the job stores what it removes there.
      history_entry_id: expect.any(Number),
    });
  });

  it('carries the id the API made up when the client sent none', async () => {
    const { payload, header } = await queuedPayload({});
    expect(header).toMatch(UUID);
    expect(payload.request_id).toBe(header);
  });

  it('carries only its own request id when requests overlap', async () => {
    // Two guilds, so neither request joins the other's job.
    const both = await Promise.all(
      [GUILDS.station, GUILDS.quiet].map(async (guildId, index) => {
        const response = await h.app.inject({
          method: 'POST',
          url: routePath(routes.syncLevelingRoles, { guildId }),
          headers: { authorization: ada, 'x-request-id': `overlap-${index}` },
        });
        expect(response.statusCode, response.body).toBe(202);
        const job = await h.app.services.queue.forShard(0).getJob(response.json<{ job_id: string }>().job_id);
        await job?.remove();
        return GuildJobPayload.parse(job?.data).request_id;
      }),
    );
    expect(both).toEqual(['overlap-0', 'overlap-1']);
  });
});
