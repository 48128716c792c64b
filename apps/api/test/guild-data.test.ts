import {
  type GuildDataSummary,
  type GuildDepartureList,
  MESSAGES,
  routePath,
  routes,
} from '@spacecadet/contract';
import { guildDepartures } from '@spacecadet/db/schema';
import { seedEveryGuildTable } from '@spacecadet/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * A server's data through the API: what deleting it removes (counted from every guild_id
 * table), and the deletion itself for the server's owner only, named in the body, queued as a
 * job. Ownership is Discord's answer to the bot when it is in the server (an ownership
 * transfer counts at once), else the owner flag of the user's own guild list.
 */
let h: Harness;
let ada: string;
let mo: string;
let nia: string;
let zed: string;
const { station, quiet, orbit } = GUILDS;
const dataPath = (guildId: string) => routePath(routes.getGuildData, { guildId });

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  mo = await signIn(h, USERS.mo);
  nia = await signIn(h, USERS.nia);
  zed = await signIn(h, USERS.zed);
  await seedEveryGuildTable(h.database.db, station);
  // The bot is in Sandbox Station: it has no departure record.
  await h.database.db.delete(guildDepartures).where(eq(guildDepartures.guildId, station));
});
afterAll(async () => {
  await h?.close();
});

function send(method: 'GET' | 'DELETE', url: string, as: string, payload?: object) {
  return h.app.inject({ method, url, headers: { authorization: as }, ...(payload ? { payload } : {}) });
}

describe('GET /api/guilds/:guildId/data', () => {
  it('counts what would go, for the confirmation, and says the owner may', async () => {
    const res = await send('GET', dataPath(station), ada);
    expect(res.statusCode).toBe(200);
    const body = res.json<GuildDataSummary>();
    expect(body).toMatchObject({
      guild_id: station,
      owner: true,
      members_with_xp: 1,
      history_entries: 1,
      role_menus: 1,
      departure: null,
    });
    expect(body.settings).toBe(4);
    expect(body.total_rows).toBe(Object.values(body.tables).reduce((a, b) => a + b, 0));
    expect(body.tables).not.toHaveProperty('bot_guilds');
    expect(Object.values(body.tables).every((n) => n === 1)).toBe(true);
  });

  it('answers a Manage Server holder who is not the owner, with owner false', async () => {
    const res = await send('GET', dataPath(station), mo);
    expect(res.statusCode).toBe(200);
    expect(res.json<GuildDataSummary>().owner).toBe(false);
  });

  it('refuses a member without Manage Server', async () => {
    expect((await send('GET', dataPath(station), nia)).statusCode).toBe(403);
  });
});

describe('DELETE /api/guilds/:guildId/data', () => {
  it('refuses a Manage Server holder who is not the owner (403, the sentence says why)', async () => {
    const res = await send('DELETE', dataPath(station), mo, { confirm: 'Sandbox Station' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', message: MESSAGES.guildDataOwnerOnly });
  });

  it("refuses a server the user does not manage (another's)", async () => {
    const res = await send('DELETE', dataPath(orbit), ada, { confirm: 'Other Orbit' });
    expect(res.statusCode).toBe(403);
  });

  it('refuses without the server named exactly (400), and queues nothing', async () => {
    for (const payload of [{ confirm: 'Sandbox' }, { confirm: 'other orbit' }]) {
      const res = await send('DELETE', dataPath(station), ada, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.guildDataConfirmMismatch);
    }
    expect((await send('DELETE', dataPath(station), ada)).statusCode).toBe(400);
    expect(await h.app.services.queue.forShard(0).getJob(`guild-data.delete.${station}`)).toBeUndefined();
  });

  it('queues the deletion for the owner: 202 with the job, readable on the job route', async () => {
    const res = await send('DELETE', dataPath(station), ada, { confirm: 'Sandbox Station' });
    expect(res.statusCode).toBe(202);
    const { job_id } = res.json<{ job_id: string }>();
    expect(job_id).toBe(`guild-data.delete.${station}`);
    const job = await h.app.services.queue.forShard(0).getJob(job_id);
    expect(job?.name).toBe('guild-data.delete');
    expect(job?.data).toMatchObject({ guild_id: station, requested_by: USERS.ada });
    const status = await send('GET', routePath(routes.getJob, { jobId: job_id }), ada);
    expect(status.statusCode).toBe(200);
    // The API only queues: the worker deletes.
    expect((await send('GET', dataPath(station), ada)).json<GuildDataSummary>().members_with_xp).toBe(1);
    await job?.remove();
  });

  it("follows Discord's owner_id at once after an ownership transfer, not the user's cached list", async () => {
    const transfer = (owner_id: string) =>
      fetch(`${h.sandbox.url}/_sandbox/guilds/${station}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner_id }),
      });
    expect((await transfer(USERS.mo)).ok).toBe(true);
    try {
      expect((await send('GET', dataPath(station), mo)).json<GuildDataSummary>().owner).toBe(true);
      expect((await send('DELETE', dataPath(station), ada, { confirm: 'Sandbox Station' })).statusCode).toBe(
        403,
      );
    } finally {
      await transfer(USERS.ada);
    }
  });
});

describe('a server the bot was removed from', () => {
  it("takes the owner from the user's guild list, and lists it pending deletion to its owner only", async () => {
    const purgeAfter = new Date(Date.now() + 30 * 24 * 3600_000);
    await h.database.db.insert(guildDepartures).values({ guildId: quiet, purgeAfter });
    const owner = (await send('GET', dataPath(quiet), zed)).json<GuildDataSummary>();
    expect(owner.owner).toBe(true);
    expect(owner.departure?.purge_after).toBe(purgeAfter.toISOString());
    // Ada is an administrator of Quiet Quarters, not its owner.
    expect((await send('GET', dataPath(quiet), ada)).json<GuildDataSummary>().owner).toBe(false);
    expect((await send('DELETE', dataPath(quiet), ada, { confirm: 'Quiet Quarters' })).statusCode).toBe(403);

    const listed = await send('GET', routePath(routes.listGuildDepartures, {}), zed);
    expect(listed.statusCode).toBe(200);
    expect(listed.json<GuildDepartureList>().guilds).toEqual([
      expect.objectContaining({
        guild_id: quiet,
        name: 'Quiet Quarters',
        purge_after: purgeAfter.toISOString(),
      }),
    ]);
    expect(
      (await send('GET', routePath(routes.listGuildDepartures, {}), ada)).json<GuildDepartureList>().guilds,
    ).toEqual([]);
  });
});
