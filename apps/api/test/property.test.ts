import { type RouteName, routes } from '@spacecadet/contract';
import {
  colorGroups,
  colorPanels,
  guildConfigs,
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  personalityConfigs,
  personalityQuestions,
  reactionRoles,
} from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';
import { SAMPLE_BODIES, sampleRequest } from './samples.ts';

let h: Harness;
let ada: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  // Rows for the routes that edit existing things (role 1, boost 1, zodiac question).
  for (const name of ['createLevelingRole', 'createBoost', 'initPersonalityRoles'] as const) {
    const response = await h.app.inject({
      ...sampleRequest(name, GUILDS.station),
      headers: { authorization: ada },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }
});
afterAll(async () => {
  await h?.close();
});

/** Everything a write route could change for the guild, including queued jobs. */
async function snapshot(): Promise<string> {
  const db = h.database.db;
  const guild = GUILDS.station;
  const tables = await Promise.all([
    db.select().from(guildConfigs).where(eq(guildConfigs.guildId, guild)),
    db.select().from(reactionRoles).where(eq(reactionRoles.guildId, guild)),
    db.select().from(colorPanels).where(eq(colorPanels.guildId, guild)),
    db.select().from(colorGroups).where(eq(colorGroups.guildId, guild)),
    db.select().from(levelingSettings).where(eq(levelingSettings.guildId, guild)),
    db.select().from(levelingRoles).where(eq(levelingRoles.guildId, guild)).orderBy(levelingRoles.id),
    db.select().from(levelingBoosts).where(eq(levelingBoosts.guildId, guild)).orderBy(levelingBoosts.id),
    db.select().from(personalityConfigs).where(eq(personalityConfigs.guildId, guild)),
    db
      .select()
      .from(personalityQuestions)
      .where(eq(personalityQuestions.guildId, guild))
      .orderBy(personalityQuestions.id),
    h.app.services.queue.getJobCounts(),
  ]);
  return JSON.stringify(tables);
}

/** Logout is left out: it takes no body and would end the session the other routes use. */
const WRITE_ROUTES = (Object.keys(routes) as RouteName[]).filter(
  (name) => routes[name].method !== 'GET' && routes[name].auth !== 'public' && name !== 'logout',
);

/** Bodies near the route's shape (its own keys, random values) and far from it (any JSON, raw text). */
function bodies(name: RouteName): fc.Arbitrary<{ raw: string } | { json: unknown }> {
  const keys = Object.keys(SAMPLE_BODIES[name] ?? {});
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.stringMatching(/^\d{1,22}$/),
    fc.constantFrom('', ' ', 'basic', 'shades', '2030-01-01T00:00:00Z', '\u0000', -1, 1e21, null),
  );
  const shaped = keys.length > 0 ? fc.dictionary(fc.constantFrom(...keys, 'extra'), value) : fc.constant({});
  return fc.oneof(
    shaped.map((json) => ({ json })),
    fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })),
    fc.string({ maxLength: 40 }).map((raw) => ({ raw })),
  );
}

describe('random bodies at every write route', () => {
  it('covers every write route of the table', () => {
    expect(WRITE_ROUTES.length).toBeGreaterThan(25);
  });

  it.each(WRITE_ROUTES)('%s answers only 2xx/4xx and a rejected body changes nothing', async (name) => {
    const { method, url } = sampleRequest(name, GUILDS.station);
    await fc.assert(
      fc.asyncProperty(bodies(name), async (body) => {
        const before = await snapshot();
        const response = await h.app.inject({
          method,
          url,
          headers: { authorization: ada, 'content-type': 'application/json' },
          payload: 'raw' in body ? body.raw : JSON.stringify(body.json),
        });
        expect(response.statusCode, response.body).toBeLessThan(500);
        expect(response.statusCode).toBeGreaterThanOrEqual(200);
        // The session stays valid throughout, so a rejection is about the body, never auth.
        expect([401, 403]).not.toContain(response.statusCode);
        if (response.statusCode >= 400) {
          expect(response.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
          expect(await snapshot()).toBe(before);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('random paths and queries at the read routes', () => {
  const segment = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.stringMatching(/^\d{1,25}$/),
    fc.constantFrom('color-roles.generate.300000000000000001', '..', '%00', '%ZZ', '-1'),
  );

  it('never answer 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          (s: string) => `/api/invite-url?guildId=${encodeURIComponent(s)}`,
          (s: string) => `/install?guildId=${encodeURIComponent(s)}`,
          (s: string) => `/install/callback?code=x&state=${encodeURIComponent(s)}`,
          (s: string) => `/install/callback?guild_id=${encodeURIComponent(s)}&error=${encodeURIComponent(s)}`,
          (s: string) => `/api/bot/in-guild/${encodeURIComponent(s)}`,
          (s: string) => `/api/jobs/${encodeURIComponent(s)}`,
          (s: string) => `/api/guilds/${encodeURIComponent(s)}/config`,
          (s: string) =>
            `/api/guilds/${GUILDS.station}/personality-roles/questions/${encodeURIComponent(s)}/toggle`,
        ),
        segment,
        async (path, value) => {
          const response = await h.app.inject({ url: path(value), headers: { authorization: ada } });
          expect(response.statusCode, `${path(value)}: ${response.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
