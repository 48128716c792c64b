import { CONFIG_NOT_OBJECT, type RouteName, routePath, routes } from '@spacecadet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * Every leveling route answers out-of-range and wrongly typed input with a sentence of ours,
 * never a validator's wording ("Too big: expected number to be <=100", "Invalid input: expected
 * string, received number", 'Unrecognized key: "x"').
 */
const VALIDATOR_WORDING = /too (big|small)|invalid input|expected [a-z]+|received|unrecognized key|<=|>=/i;

let h: Harness;
let ada: string;
let roleId: number;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  const role = await h.app.inject({
    method: 'POST',
    url: routePath(routes.createLevelingRole, { guildId: GUILDS.station }),
    headers: { authorization: ada },
    payload: { role_name: 'Probe', level_required: 3 },
  });
  roleId = role.json<{ id: number }>().id;
});
afterAll(async () => {
  await h?.close();
});

const bad = {
  number: ['1', true, null, [], {}, -1, 1e12, 1.5, 101, 1001],
  text: [1, true, null, [], {}, 'x'.repeat(3000)],
  list: ['x', 1, [1], ['not-an-id'], Array.from({ length: 60 }, (_, i) => `3000000000000001${i}`)],
  flag: ['yes', 1, null],
  choice: ['sometimes', 1, null],
};

/** Bodies each leveling write route gets, one bad field at a time, plus unknown keys and non-objects. */
const CASES: Array<[RouteName, Record<string, string | number>, Record<string, readonly unknown[]>]> = [
  [
    'putLeveling',
    {},
    {
      enabled: bad.flag,
      xp_multiplier: bad.number,
      xp_per_message: bad.number.slice(0, 5),
      message_cooldown_sec: bad.number.slice(0, 5),
      announcement_channel: bad.text,
      no_xp_channels: bad.list,
      no_xp_roles: bad.list,
      level_up_message: bad.text,
      level_up_destination: bad.choice,
      reward_mode: bad.choice,
      leaderboard_visibility: bad.choice,
    },
  ],
  ['createLevelingRole', {}, { role_name: bad.text, level_required: bad.number, is_image_role: bad.flag }],
  [
    'updateLevelingRole',
    { roleId: 0 },
    { role_name: bad.text, level_required: bad.number, is_image_role: bad.flag },
  ],
  [
    'createBoost',
    {},
    { multiplier: bad.number, user_id: bad.text, expires_at: [1, 'tomorrow', '1969-01-01T00:00:00Z'] },
  ],
  ['createRoleBoost', {}, { multiplier: bad.number, role_id: bad.text }],
  ['createChannelBoost', {}, { multiplier: bad.number, channel_id: bad.text }],
  ['setMemberXp', { userId: USERS.nia }, { xp: bad.number }],
];
const VALID: Partial<Record<RouteName, object>> = {
  createRoleBoost: { role_id: '300000000000000021' },
  createChannelBoost: { channel_id: CHANNELS.general },
  setMemberXp: { xp: 1 },
};

describe('leveling input errors', () => {
  it.each(CASES)('%s answers sentences for every bad field', async (name, params, fields) => {
    const url = routePath(routes[name], {
      guildId: GUILDS.station,
      ...params,
      ...('roleId' in params ? { roleId } : {}),
    });
    const method = routes[name].method;
    const payloads: unknown[] = [[1], 'text', 5, { ...VALID[name], not_a_field: 1 }];
    for (const [field, values] of Object.entries(fields)) {
      for (const value of values) payloads.push({ ...VALID[name], [field]: value });
    }
    let refused = 0;
    for (const payload of payloads) {
      const response = await h.app.inject({
        method,
        url,
        headers: { authorization: ada, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(response.statusCode, `${JSON.stringify(payload)} ${response.body}`).toBeLessThan(500);
      if (response.statusCode !== 400) continue;
      refused++;
      const { message, issues } = response.json<{ message: string; issues?: Array<{ message: string }> }>();
      for (const text of [message, ...(issues ?? []).map((issue) => issue.message)]) {
        expect(text, JSON.stringify(payload)).not.toMatch(VALIDATOR_WORDING);
      }
    }
    expect(refused).toBeGreaterThan(payloads.length / 2);
  });

  it('the leaderboard and import queries say what they take', async () => {
    for (const url of [
      `${routePath(routes.getLeaderboard, { guildId: GUILDS.station })}?limit=500`,
      `${routePath(routes.getPublicLeaderboard, { guildId: GUILDS.station })}?offset=-1`,
    ]) {
      const response = await h.app.inject({ url, headers: { authorization: ada } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).not.toMatch(VALIDATOR_WORDING);
    }
  });
});

describe('raw config', () => {
  it('answers "Config must be a JSON object" for valid JSON that is not an object', async () => {
    for (const payload of ['[1,2]', '5', '"text"', 'null', 'true']) {
      const response = await h.app.inject({
        method: 'PUT',
        url: routePath(routes.putConfig, { guildId: GUILDS.station }),
        headers: { authorization: ada, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().message, payload).toBe(CONFIG_NOT_OBJECT);
    }
  });
});
