import { colorGroups } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';
import { GUILD_ROUTES, sampleRequest } from './samples.ts';

let h: Harness;
const auth: Record<'ada' | 'mo' | 'nia', string> = { ada: '', mo: '', nia: '' };

beforeAll(async () => {
  h = await startHarness();
  auth.ada = await signIn(h, USERS.ada);
  auth.mo = await signIn(h, USERS.mo);
  auth.nia = await signIn(h, USERS.nia);
});
afterAll(async () => {
  await h?.close();
});

async function call(name: (typeof GUILD_ROUTES)[number], guildId: string, authorization?: string) {
  const request = sampleRequest(name, guildId);
  return h.app.inject({ ...request, headers: authorization ? { authorization } : {} });
}

describe('authorization matrix for every guild route of the contract', () => {
  it('covers the whole table', () => {
    expect(GUILD_ROUTES.length).toBeGreaterThan(30);
  });

  it.each(GUILD_ROUTES)('%s', async (name) => {
    const anonymous = await call(name, GUILDS.station);
    expect(anonymous.statusCode, anonymous.body).toBe(401);
    expect(anonymous.json().error).toBe('not_authenticated');

    const nia = await call(name, GUILDS.station, auth.nia);
    expect(nia.statusCode, nia.body).toBe(403);
    expect(nia.json()).toEqual({ error: 'forbidden', message: expect.any(String) });

    const adaOnOrbit = await call(name, GUILDS.orbit, auth.ada);
    expect(adaOnOrbit.statusCode, adaOnOrbit.body).toBe(403);

    for (const who of [auth.mo, auth.ada]) {
      const allowed = await call(name, GUILDS.station, who);
      expect([401, 403], `${name}: ${allowed.body}`).not.toContain(allowed.statusCode);
      expect(allowed.statusCode, `${name}: ${allowed.body}`).toBeLessThan(500);
    }
  });
});

describe('group routes authorize on the group guild', () => {
  it('PUT /api/color-groups/expand', async () => {
    const [station] = await h.database.db
      .insert(colorGroups)
      // Not Rainbow: the matrix above saved a palette for Station, which made that group.
      .values({ guildId: GUILDS.station, name: 'Probe' })
      .returning();
    const [orbit] = await h.database.db
      .insert(colorGroups)
      .values({ guildId: GUILDS.orbit, name: 'Rainbow' })
      .returning();
    const expand = (groupId: number | undefined, authorization?: string) =>
      h.app.inject({
        method: 'PUT',
        url: '/api/color-groups/expand',
        payload: { group_id: groupId, is_expanded: false },
        headers: authorization ? { authorization } : {},
      });
    expect((await expand(station?.id)).statusCode).toBe(401);
    // Nia manages no guild: 403 whether or not the group exists.
    expect((await expand(station?.id, auth.nia)).statusCode).toBe(403);
    expect((await expand(999_999, auth.nia)).statusCode).toBe(403);
    // Ada manages Station only: Orbit's group answers like a missing one, and is left alone.
    const foreign = await expand(orbit?.id, auth.ada);
    const missing = await expand(999_999, auth.ada);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    const [orbitAfter] = await h.database.db
      .select()
      .from(colorGroups)
      .where(eq(colorGroups.id, orbit?.id ?? 0));
    expect(orbitAfter?.isExpanded).toBe(orbit?.isExpanded);
    const ok = await expand(station?.id, auth.mo);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ group_id: station?.id, is_expanded: false });
  });
});

describe('session routes', () => {
  it.each([
    '/api/auth/session',
    '/api/discord/me/guilds',
    '/api/jobs/color-roles.generate.300000000000000001',
  ])('%s needs a session', async (url) => {
    const response = await h.app.inject({ url });
    expect(response.statusCode).toBe(401);
  });
});
