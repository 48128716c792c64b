import {
  CHANNEL_PERMISSION_BITS,
  CHANNEL_USES,
  type RouteDef,
  type RouteName,
  routePath,
  routes,
} from '@spacecadet/contract';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';
import { EXTRA_PARAMS, SAMPLE_BODIES } from './samples.ts';

let h: Harness;
let ada: string;
const BOT_ROLE = SANDBOX_IDS.roles.stationBot;
const P = {
  ViewChannel: CHANNEL_PERMISSION_BITS['View Channel'],
  SendMessages: CHANNEL_PERMISSION_BITS['Send Messages'],
  EmbedLinks: CHANNEL_PERMISSION_BITS['Embed Links'],
};

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  for (const channel of [CHANNELS.roles, CHANNELS.levelUps]) {
    await fetch(`${h.sandbox.url}/_sandbox/channels/${channel}/permissions/${BOT_ROLE}`, {
      method: 'DELETE',
    });
    await fetch(`${h.sandbox.url}/_sandbox/channels/${channel}/permissions/${GUILDS.station}`, {
      method: 'DELETE',
    });
  }
});

/** An admin's overwrite in the sandbox (as done in Discord's channel settings). */
async function overwrite(channel: string, id: string, deny: bigint, allow = 0n): Promise<void> {
  const res = await fetch(`${h.sandbox.url}/_sandbox/channels/${channel}/permissions/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 0, allow: allow.toString(), deny: deny.toString() }),
  });
  expect(res.status).toBe(200);
}

function send(def: RouteDef, payload: object) {
  return h.app.inject({
    method: def.method,
    url: routePath(def, { ...EXTRA_PARAMS, guildId: GUILDS.station }),
    headers: { authorization: ada },
    payload,
  });
}

const CHANNEL_ROUTES = (Object.keys(routes) as RouteName[]).filter(
  (name) => (routes[name] as RouteDef).channelUses !== undefined,
);

describe("saving a channel checks the bot's permissions there", () => {
  it('covers every channel field of the contract', () => {
    expect(CHANNEL_ROUTES.sort()).toEqual(
      [
        'createRoleMenu',
        'initPersonalityRoles',
        'putLeveling',
        'setColorRolesChannel',
        'setPersonalityChannel',
        'setReactionListChannel',
        'updateRoleMenu',
        'putWelcome',
      ].sort(),
    );
    // Every channel a route's body names (guildRefs) says what the bot does there, except the
    // channels it only reads messages of (no-XP channels): it posts nothing there.
    const readOnly = new Set(['putLeveling.no_xp_channels[]']);
    for (const name of CHANNEL_ROUTES) {
      const def: RouteDef = routes[name];
      const channelFields = Object.entries(def.guildRefs ?? {}).filter(
        ([field, kind]) => kind === 'channel' && !readOnly.has(`${name}.${field}`),
      );
      expect(Object.keys(def.channelUses ?? {}).sort()).toEqual(channelFields.map(([field]) => field).sort());
    }
  });

  for (const name of CHANNEL_ROUTES) {
    const def: RouteDef = routes[name];
    for (const [field, use] of Object.entries(def.channelUses ?? {})) {
      it(`${name}: ${field} refused with a 400 naming Send Messages and the channel`, async () => {
        await overwrite(CHANNELS.roles, BOT_ROLE, P.SendMessages);
        const body = { ...(SAMPLE_BODIES[name] as object), [field]: CHANNELS.roles };
        const res = await send(def, body);
        expect(res.statusCode, res.body).toBe(400);
        // Without Send Messages, embeds go too (Discord's implicit denial).
        const missing = CHANNEL_USES[use].filter((p) => p === 'Send Messages' || p === 'Embed Links');
        const message = `Missing permission${missing.length > 1 ? 's' : ''} ${missing.join(', ')} in #roles. Allow ${missing.length > 1 ? 'them' : 'it'} for the bot in that channel's permissions on Discord, then save again.`;
        expect(res.json()).toEqual({ error: 'invalid_input', message, issues: [{ path: field, message }] });
      });
    }
  }

  it('names only what the use needs: Embed Links matters for panels, not for level-up messages', async () => {
    await overwrite(CHANNELS.roles, BOT_ROLE, P.EmbedLinks);
    const panel = await send(routes.setColorRolesChannel, { channel_id: CHANNELS.roles });
    expect(panel.json().message).toMatch(/^Missing permission Embed Links in #roles\./);
    const leveling = await send(routes.putLeveling, { announcement_channel: CHANNELS.roles });
    expect(leveling.statusCode, leveling.body).toBe(200);
  });

  it('@everyone denied View Channel hides it from the bot unless its role is allowed back', async () => {
    await overwrite(CHANNELS.levelUps, GUILDS.station, P.ViewChannel);
    const hidden = await send(routes.putLeveling, { daily_overview_channel: CHANNELS.levelUps });
    expect(hidden.json()).toMatchObject({
      error: 'invalid_input',
      message: expect.stringMatching(
        /^Missing permissions View Channel, Send Messages, Read Message History in #level-ups\./,
      ),
    });
    await overwrite(CHANNELS.levelUps, BOT_ROLE, 0n, P.ViewChannel);
    const allowed = await send(routes.putLeveling, { daily_overview_channel: CHANNELS.levelUps });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('an admin who fixes the permissions and saves again is accepted at once (no stale cache)', async () => {
    await overwrite(CHANNELS.roles, BOT_ROLE, P.SendMessages);
    expect((await send(routes.setColorRolesChannel, { channel_id: CHANNELS.roles })).statusCode).toBe(400);
    await fetch(`${h.sandbox.url}/_sandbox/channels/${CHANNELS.roles}/permissions/${BOT_ROLE}`, {
      method: 'DELETE',
    });
    expect((await send(routes.setColorRolesChannel, { channel_id: CHANNELS.roles })).statusCode).toBe(200);
  });
});
