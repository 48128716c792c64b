import {
  type PersonalityRolesState,
  personalityLastRefreshKey,
  personalityLastRepairKey,
  routePath,
  routes,
} from '@spacecadet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
const guildId = GUILDS.station;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

const send = (method: 'GET' | 'POST', name: keyof typeof routes, payload?: object) =>
  h.app.inject({
    method,
    url: routePath(routes[name], { guildId }),
    headers: { authorization: ada },
    ...(payload ? { payload } : {}),
  });

describe('the personality page’s last repair', () => {
  it('answers the last run that repaired something next to the last run, once set up', async () => {
    const repair = { ran_at: '2026-11-24T02:00:00.000Z', summary: '1 role created.', repaired: 1 };
    const run = { ran_at: '2026-11-24T02:00:00.100Z', summary: 'Everything was in place.', repaired: 0 };
    const { redis } = h.app.services;
    await redis.set(personalityLastRepairKey(guildId), JSON.stringify(repair));
    await redis.set(personalityLastRefreshKey(guildId), JSON.stringify(run));
    // Not set up: neither is shown.
    const before = (await send('GET', 'getPersonalityRoles')).json<PersonalityRolesState>();
    expect(before.last_refresh).toBeNull();
    expect(before).not.toHaveProperty('last_repair');

    expect((await send('POST', 'initPersonalityRoles', { channel_id: CHANNELS.roles })).statusCode).toBe(200);
    const state = (await send('GET', 'getPersonalityRoles')).json<PersonalityRolesState>();
    expect(state.last_refresh).toEqual(run);
    expect(state.last_repair).toEqual(repair);

    // A record that does not parse is left out, not a failure.
    await redis.set(personalityLastRepairKey(guildId), '{"ran_at":"yesterday"}');
    expect((await send('GET', 'getPersonalityRoles')).json()).not.toHaveProperty('last_repair');
  });
});
