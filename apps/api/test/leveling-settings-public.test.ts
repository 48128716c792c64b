import {
  DEFAULT_LEVEL_UP_MESSAGE,
  jobIdFor,
  type LevelingSettings,
  type PublicLeaderboard,
  routePath,
  routes,
} from '@spacecadet/contract';
import { channelBoostUserId } from '@spacecadet/core';
import { levelingSettings, memberXp } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LEADERBOARD_MEMBERS_ONLY_MESSAGE,
  LEADERBOARD_NOT_PUBLIC_MESSAGE,
  LEADERBOARD_SIGN_IN_MESSAGE,
} from '../src/services/leveling/leaderboard.ts';
import { LEVEL_UP_CHANNEL_MISSING_MESSAGE } from '../src/services/leveling/settings.ts';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
let nia: string;
let rex: string;
const station = GUILDS.station;
const settingsPath = routePath(routes.putLeveling, { guildId: station });
const STATION_CREW = '300000000000000021';

beforeAll(async () => {
  h = await startHarness();
  [ada, nia, rex] = await Promise.all([signIn(h, USERS.ada), signIn(h, USERS.nia), signIn(h, USERS.rex)]);
});
afterAll(async () => {
  await h?.close();
});

const put = (payload: object) =>
  h.app.inject({ method: 'PUT', url: settingsPath, headers: { authorization: ada }, payload });

describe('PUT leveling: the new settings', () => {
  it('stores no-XP channels and roles of the server, the message, destination, mode and visibility', async () => {
    const response = await put({
      no_xp_channels: [CHANNELS.general, CHANNELS.general],
      no_xp_roles: [STATION_CREW],
      level_up_message: '{user} is now level {level} in {server}!',
      level_up_destination: 'dm',
      leaderboard_visibility: 'anyone',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<LevelingSettings>()).toMatchObject({
      no_xp_channels: [CHANNELS.general],
      no_xp_roles: [STATION_CREW],
      level_up_message: '{user} is now level {level} in {server}!',
      level_up_destination: 'dm',
      leaderboard_visibility: 'anyone',
    });
    const blank = await put({ level_up_message: '   ' });
    expect(blank.json<LevelingSettings>().level_up_message).toBe(DEFAULT_LEVEL_UP_MESSAGE);
  });

  it('takes voice channels as no-XP channels (time there earns no voice XP)', async () => {
    const response = await put({ no_xp_channels: [CHANNELS.general, CHANNELS.stationLounge] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<LevelingSettings>().no_xp_channels).toEqual([
      CHANNELS.general,
      CHANNELS.stationLounge,
    ]);
  });

  it('refuses ids of other servers, naming the field and the id', async () => {
    const channel = await put({ no_xp_channels: [CHANNELS.general, CHANNELS.orbitHangar] });
    expect(channel.statusCode).toBe(400);
    expect(channel.json().message).toBe(
      `no_xp_channels: ${CHANNELS.orbitHangar} is not a channel of this server`,
    );
    const role = await put({ no_xp_roles: ['300000000000000999'] });
    expect(role.statusCode).toBe(400);
    expect(role.json().message).toBe('no_xp_roles: 300000000000000999 is not a role of this server');
    const long = await put({ level_up_message: 'x'.repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('The level-up message is at most 2000 characters');
  });

  it('refuses level-ups to a channel without an announcement channel, sent or stored', async () => {
    await h.database.db.delete(levelingSettings).where(eq(levelingSettings.guildId, station));
    await put({ level_up_destination: 'dm' });
    const refused = await put({ level_up_destination: 'channel' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: LEVEL_UP_CHANNEL_MISSING_MESSAGE,
      issues: [{ path: 'level_up_destination', message: LEVEL_UP_CHANNEL_MISSING_MESSAGE }],
    });
    const cleared = await put({ level_up_destination: 'channel', announcement_channel: null });
    expect(cleared.statusCode).toBe(400);
    const together = await put({ level_up_destination: 'channel', announcement_channel: CHANNELS.levelUps });
    expect(together.statusCode, together.body).toBe(200);
    const stored = await put({ level_up_destination: 'channel' });
    expect(stored.statusCode).toBe(200);
  });

  it('takes back the settings GET answered for a server that never set them (destination channel, no channel)', async () => {
    await h.database.db.delete(levelingSettings).where(eq(levelingSettings.guildId, station));
    const got = await h.app.inject({
      url: routePath(routes.getLeveling, { guildId: station }),
      headers: { authorization: ada },
    });
    const defaults = got.json<{ leveling: LevelingSettings }>().leveling;
    expect(defaults).toMatchObject({ level_up_destination: 'channel', announcement_channel: null });
    const echoed = await put({ ...defaults, xp_per_message: 20 });
    expect(echoed.statusCode, echoed.body).toBe(200);
    // The edited xp_per_message sets the range (min = max); the range sent back unchanged does not undo it.
    expect(echoed.json<LevelingSettings>()).toEqual({
      ...defaults,
      xp_per_message: 20,
      xp_min: 20,
      xp_max: 20,
    });
  });

  it('sets the XP range from xp_min and xp_max, says the mean as xp_per_message, and refuses crossed ends', async () => {
    const ranged = await put({ xp_min: 15, xp_max: 25, xp_per_message: 3 });
    expect(ranged.statusCode, ranged.body).toBe(200);
    expect(ranged.json<LevelingSettings>()).toMatchObject({ xp_min: 15, xp_max: 25, xp_per_message: 20 });
    const onlyMax = await put({ xp_max: 40 });
    expect(onlyMax.json<LevelingSettings>()).toMatchObject({ xp_min: 15, xp_max: 40 });
    const crossed = await put({ xp_min: 50 });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json<{ message: string }>().message).toBe(
      'The least XP a message earns (xp_min) must be at most the most (xp_max)',
    );
    const after = await put({});
    expect(after.json<LevelingSettings>()).toMatchObject({ xp_min: 15, xp_max: 40 });
  });

  it('queues Sync Roles when the reward mode changes, and Reset Config puts every new setting back', async () => {
    const syncJob = jobIdFor('leveling.sync-roles', station);
    await h.app.services.queue.forShard(0).remove(syncJob);
    await put({ reward_mode: 'stack' });
    expect(await h.app.services.queue.forShard(0).getJobState(syncJob)).toBe('unknown');
    const changed = await put({ reward_mode: 'highest', no_xp_roles: [STATION_CREW] });
    expect(changed.json<LevelingSettings>().reward_mode).toBe('highest');
    expect(await h.app.services.queue.forShard(0).getJobState(syncJob)).not.toBe('unknown');

    const reset = await h.app.inject({
      method: 'POST',
      url: routePath(routes.resetLevelingConfig, { guildId: station }),
      headers: { authorization: ada },
    });
    expect(reset.json<LevelingSettings>()).toMatchObject({
      enabled: false,
      no_xp_channels: [],
      no_xp_roles: [],
      level_up_message: DEFAULT_LEVEL_UP_MESSAGE,
      level_up_destination: 'channel',
      reward_mode: 'stack',
      leaderboard_visibility: 'off',
    });
  });
});

describe('POST leveling/channel-boosts', () => {
  it('adds a channel boost, listed with the channel as its target; refuses a channel of another server', async () => {
    const url = routePath(routes.createChannelBoost, { guildId: station });
    const created = await h.app.inject({
      method: 'POST',
      url,
      headers: { authorization: ada },
      payload: { channel_id: CHANNELS.general, multiplier: 3 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ multiplier: 3, user_id: channelBoostUserId(CHANNELS.general) });
    expect(created.json().user_id).toBe(`-channel:${CHANNELS.general}`);
    const listed = await h.app.inject({
      url: routePath(routes.getLeveling, { guildId: station }),
      headers: { authorization: ada },
    });
    expect(listed.json().boosts).toContainEqual(created.json());

    const foreign = await h.app.inject({
      method: 'POST',
      url,
      headers: { authorization: ada },
      payload: { channel_id: CHANNELS.orbitHangar },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('channel_id is not a text channel of this server');
    const big = await h.app.inject({
      method: 'POST',
      url,
      headers: { authorization: ada },
      payload: { channel_id: CHANNELS.general, multiplier: 101 },
    });
    expect(big.json().message).toBe('multiplier must be a number from 0 to 100');
  });
});

describe('GET /api/public/leaderboard/:guildId', () => {
  const url = routePath(routes.getPublicLeaderboard, { guildId: station });
  const visit = (authorization?: string) =>
    h.app.inject({ url, ...(authorization ? { headers: { authorization } } : {}) });
  const setVisibility = (leaderboardVisibility: 'off' | 'members' | 'anyone') =>
    h.database.db
      .insert(levelingSettings)
      .values({ guildId: station, leaderboardVisibility })
      .onConflictDoUpdate({ target: levelingSettings.guildId, set: { leaderboardVisibility } });

  beforeAll(async () => {
    await h.database.db.delete(memberXp).where(eq(memberXp.guildId, station));
    await h.database.db.insert(memberXp).values([
      { guildId: station, userId: USERS.nia, xp: 700, username: 'nia', avatar: 'abc' },
      { guildId: station, userId: USERS.ada, xp: 300, username: 'ada' },
    ]);
  });

  it('off: 404 for everyone', async () => {
    await setVisibility('off');
    for (const who of [undefined, ada, nia, rex]) {
      const response = await visit(who);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(LEADERBOARD_NOT_PUBLIC_MESSAGE);
    }
  });

  it('members: 401 signed out, 403 for someone outside the server, 200 for its members', async () => {
    await setVisibility('members');
    const out = await visit();
    expect(out.statusCode).toBe(401);
    expect(out.json().message).toBe(LEADERBOARD_SIGN_IN_MESSAGE);
    const outsider = await visit(rex);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().message).toBe(LEADERBOARD_MEMBERS_ONLY_MESSAGE);
    for (const member of [nia, ada]) {
      const response = await visit(member);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('members: paging asks Discord about the reader once, not on every page', async () => {
    await setVisibility('members');
    const memberReads = async () =>
      (
        (await (await fetch(`${h.sandbox.url}/_sandbox/requests`)).json()) as Array<{
          method: string;
          path: string;
        }>
      ).filter((r) => r.method === 'GET' && r.path.endsWith(`/guilds/${station}/members/${USERS.mo}`)).length;
    const mo = await signIn(h, USERS.mo);
    const before = await memberReads();
    for (const offset of [0, 1, 0]) {
      const response = await h.app.inject({
        url: `${url}?limit=1&offset=${offset}`,
        headers: { authorization: mo },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    expect(await memberReads()).toBe(before + 1);
  });

  it('404 where the bot is not (its view of the server is gone), for members and anyone alike', async () => {
    for (const leaderboardVisibility of ['members', 'anyone'] as const) {
      await h.database.db
        .insert(levelingSettings)
        .values({ guildId: GUILDS.quiet, leaderboardVisibility })
        .onConflictDoUpdate({ target: levelingSettings.guildId, set: { leaderboardVisibility } });
      // Ada is in Quiet Quarters; the bot is not.
      const response = await h.app.inject({
        url: routePath(routes.getPublicLeaderboard, { guildId: GUILDS.quiet }),
        headers: { authorization: ada },
      });
      expect(response.statusCode, `${leaderboardVisibility}: ${response.body}`).toBe(404);
      expect(response.json().message).toBe(LEADERBOARD_NOT_PUBLIC_MESSAGE);
    }
  });

  it('anyone: 200 signed out, for outsiders and members, cacheable, with the server and ranked members', async () => {
    await setVisibility('anyone');
    for (const who of [undefined, rex, nia]) {
      const response = await visit(who);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    }
    const board = (await visit()).json<PublicLeaderboard>();
    expect(board.guild).toEqual({ id: station, name: 'Sandbox Station', icon: expect.any(String) });
    expect(board.visibility).toBe('anyone');
    expect(board.total).toBe(2);
    expect(board.members[0]).toMatchObject({ user_id: USERS.nia, rank: 1, avatar: 'abc', xp: 700 });
    expect(board.members[0]?.xp_for_next).toBeGreaterThan(0);
    const paged = (await h.app.inject({ url: `${url}?limit=1&offset=1` })).json<PublicLeaderboard>();
    expect(paged.members.map((m) => m.user_id)).toEqual([USERS.ada]);
    expect(paged.total).toBe(2);
  });
});
