import { jobIdFor, routePath, routes } from '@spacecadet/contract';
import { memberXp } from '@spacecadet/db';
import { roleConnections } from '@spacecadet/db/schema';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TokenCipher } from '../src/services/crypto.ts';
import { LINK_CODE_REFUSED_MESSAGE } from '../src/services/leveling/linked-roles.ts';
import { DASHBOARD_URL, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * The Linked Roles link of a signed-in member against the sandbox: the code of the linking OAuth
 * (no PKCE, `role_connections.write`) is traded and its tokens stored sealed, the member picks a
 * server with XP where the bot is, and unlinking (or erasing their data) clears the connection on
 * Discord.
 */
let h: Harness;
const { station, orbit } = GUILDS;
const { ada, mo } = USERS;
const path = routePath(routes.getLinkedRoles);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.database.db.delete(roleConnections);
  await h.database.db.delete(memberXp);
  await h.database.db.insert(memberXp).values([
    { guildId: station, userId: ada, xp: 300, level: 2, messageCount: 10 },
    { guildId: orbit, userId: ada, xp: 120, level: 1, messageCount: 4 },
  ]);
});

async function linkCode(userId: string, scope = 'identify role_connections.write'): Promise<string> {
  const params = new URLSearchParams({
    client_id: SANDBOX_IDS.app,
    redirect_uri: `${DASHBOARD_URL}/linked-roles`,
    response_type: 'code',
    scope,
    state: 'st',
    sandbox_user: userId,
  });
  const res = await fetch(`${h.sandbox.oauthBase}/oauth2/authorize?${params}`, { redirect: 'manual' });
  return new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
}

const as = (token: string) => ({ authorization: token });

describe('Linked Roles link', () => {
  it('links with a role_connections.write code, keeps the tokens sealed and queues the push', async () => {
    const token = await signIn(h, ada);
    const before = await h.app.inject({ method: 'GET', url: path, headers: as(token) });
    expect(before.json()).toMatchObject({ linked: false, guild_id: null, pushed: null });
    expect(before.json().servers.map((s: { guild_id: string }) => s.guild_id)).toEqual([station, orbit]);

    const linked = await h.app.inject({
      method: 'POST',
      url: path,
      headers: as(token),
      payload: { code: await linkCode(ada) },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ linked: true, guild_id: station, push_pending: true });
    const [row] = await h.database.db.select().from(roleConnections).where(eq(roleConnections.userId, ada));
    const grant = [...h.sandbox.world.accessTokens.values()].find((g) =>
      g.scopes.includes('role_connections.write'),
    );
    expect(row?.accessTokenEnc).not.toContain(grant?.access_token ?? '-');
    expect(new TokenCipher(h.config.sessionSecret).decrypt(row?.accessTokenEnc ?? '')).toBe(
      grant?.access_token,
    );
    expect(
      await h.app.services.queue.forShard(0).getJob(jobIdFor('linked-roles.push', station)),
    ).toBeTruthy();

    const picked = await h.app.inject({
      method: 'PUT',
      url: path,
      headers: as(token),
      payload: { guild_id: orbit },
    });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json()).toMatchObject({ guild_id: orbit, push_pending: true });
    expect(await h.app.services.queue.forShard(0).getJob(jobIdFor('linked-roles.push', orbit))).toBeTruthy();
  });

  it('refuses a code without the scope, a code of another account, and a server without XP', async () => {
    const token = await signIn(h, ada);
    const noScope = await h.app.inject({
      method: 'POST',
      url: path,
      headers: as(token),
      payload: { code: await linkCode(ada, 'identify') },
    });
    expect(noScope.statusCode).toBe(403);
    const other = await h.app.inject({
      method: 'POST',
      url: path,
      headers: as(token),
      payload: { code: await linkCode(mo) },
    });
    expect(other.statusCode).toBe(403);
    expect(await h.database.db.select().from(roleConnections)).toEqual([]);
    const notLinked = await h.app.inject({
      method: 'PUT',
      url: path,
      headers: as(token),
      payload: { guild_id: station },
    });
    expect(notLinked.statusCode).toBe(404);
    await h.app.inject({
      method: 'POST',
      url: path,
      headers: as(token),
      payload: { code: await linkCode(ada) },
    });
    const quiet = await h.app.inject({
      method: 'PUT',
      url: path,
      headers: as(token),
      payload: { guild_id: GUILDS.quiet },
    });
    expect(quiet.statusCode).toBe(400);
    const bad = await h.app.inject({
      method: 'POST',
      url: path,
      headers: as(token),
      payload: { code: 'nope' },
    });
    // The session is fine: a refused code is a 400 saying to link again, not a sign-in problem.
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe(LINK_CODE_REFUSED_MESSAGE);
  });

  it('unlinks: the connection is cleared on Discord and the row deleted; erasing member data does the same', async () => {
    await fetch(`${h.sandbox.apiBase}/v10/applications/${SANDBOX_IDS.app}/role-connections/metadata`, {
      method: 'PUT',
      headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ type: 2, key: 'level', name: 'Level', description: 'Level' }]),
    });
    const cipher = new TokenCipher(h.config.sessionSecret);
    const pushAs = async (userId: string) => {
      const [row] = await h.database.db
        .select()
        .from(roleConnections)
        .where(eq(roleConnections.userId, userId));
      await fetch(`${h.sandbox.apiBase}/v10/users/@me/applications/${SANDBOX_IDS.app}/role-connection`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${cipher.decrypt(row?.accessTokenEnc ?? '')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ metadata: { level: '2' } }),
      });
      expect(h.sandbox.state().role_connections.users[userId]?.metadata).toEqual({ level: '2' });
    };
    const token = await signIn(h, ada);
    await h.app.inject({
      method: 'POST',
      url: path,
      headers: as(token),
      payload: { code: await linkCode(ada) },
    });
    await pushAs(ada);
    const unlinked = await h.app.inject({ method: 'DELETE', url: path, headers: as(token) });
    expect(unlinked.statusCode).toBe(204);
    expect(h.sandbox.state().role_connections.users[ada]).toBeUndefined();
    expect(await h.database.db.select().from(roleConnections)).toEqual([]);
    expect((await h.app.inject({ method: 'GET', url: path, headers: as(token) })).json().linked).toBe(false);

    await h.app.inject({
      method: 'POST',
      url: path,
      headers: as(token),
      payload: { code: await linkCode(ada) },
    });
    await pushAs(ada);
    const erased = await h.app.inject({
      method: 'DELETE',
      url: routePath(routes.eraseMemberData),
      headers: as(token),
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(h.sandbox.state().role_connections.users[ada]).toBeUndefined();
    expect(await h.database.db.select().from(roleConnections)).toEqual([]);
  });
});
