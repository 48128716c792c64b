import { PermissionFlagsBits } from 'discord-api-types/v10';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { bot, control } from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.reset());

const { guilds, channels, users, roles, emojis } = SANDBOX_IDS;
const RED = encodeURIComponent('🔴');
const ROCKET = `rocket:${emojis.stationRocket}`;

async function post(content = 'react to me'): Promise<string> {
  const res = await bot(sandbox, 'POST', `/channels/${channels.roles}/messages`, { content });
  return (res.body as { id: string }).id;
}
const reactions = (message: string) => `/channels/${channels.roles}/messages/${message}/reactions`;

/** A member reacts through the control API. */
function react(message: string, user: string, emoji: string, method: 'POST' | 'DELETE' = 'POST') {
  return control(sandbox, method, '/reactions', {
    guild_id: guilds.station,
    channel_id: channels.roles,
    message_id: message,
    user_id: user,
    emoji,
  });
}

/** Denies the bot's role `bits` in #roles. */
async function denyBot(bits: bigint) {
  const overwrite = { type: 0, allow: '0', deny: bits.toString() };
  await control(sandbox, 'PUT', `/channels/${channels.roles}/permissions/${roles.stationBot}`, overwrite);
}

async function messageOf(id: string) {
  return (await bot(sandbox, 'GET', `/channels/${channels.roles}/messages/${id}`)).body as {
    reactions?: unknown[];
  };
}

describe('reactions over REST, as Discord has them', () => {
  it('adds the bot’s reaction once and shows it in every message payload as Discord serializes it', async () => {
    const id = await post();
    expect((await messageOf(id)).reactions).toBeUndefined();
    expect((await bot(sandbox, 'PUT', `${reactions(id)}/${RED}/@me`)).status).toBe(204);
    expect((await bot(sandbox, 'PUT', `${reactions(id)}/${RED}/@me`)).status).toBe(204);
    const shown = {
      count: 1,
      count_details: { burst: 0, normal: 1 },
      me: true,
      me_burst: false,
      burst_colors: [],
      emoji: { id: null, name: '🔴' },
    };
    expect((await messageOf(id)).reactions).toEqual([shown]);
    const list = (await bot(sandbox, 'GET', `/channels/${channels.roles}/messages`)).body as Array<{
      id: string;
      reactions?: unknown[];
    }>;
    expect(list.find((m) => m.id === id)?.reactions).toEqual([shown]);

    await react(id, users.nia, '🔴');
    expect((await messageOf(id)).reactions).toEqual([
      { ...shown, count: 2, count_details: { burst: 0, normal: 2 } },
    ]);
    expect((await bot(sandbox, 'DELETE', `${reactions(id)}/${RED}/@me`)).status).toBe(204);
    expect((await messageOf(id)).reactions).toEqual([
      { ...shown, me: false, count: 1, count_details: { burst: 0, normal: 1 } },
    ]);
  });

  it('takes custom emoji as name:id of an emoji the guild (or, for the bot, another of its guilds) has', async () => {
    const id = await post();
    // The stored name wins over the one in the path, and an animated one may be sent as a:name:id.
    expect((await bot(sandbox, 'PUT', `${reactions(id)}/whatever:${emojis.stationRocket}/@me`)).status).toBe(
      204,
    );
    expect(
      (await bot(sandbox, 'PUT', `${reactions(id)}/a:party_parrot:${emojis.stationParrot}/@me`)).status,
    ).toBe(204);
    expect((await bot(sandbox, 'PUT', `${reactions(id)}/comet:${emojis.orbitComet}/@me`)).status).toBe(204);
    expect(((await messageOf(id)).reactions as Array<{ emoji: unknown }>).map((r) => r.emoji)).toEqual([
      { id: emojis.stationRocket, name: 'rocket', animated: false },
      { id: emojis.stationParrot, name: 'party_parrot', animated: true },
      { id: emojis.orbitComet, name: 'comet', animated: false },
    ]);
    for (const emoji of [
      `rocket:${'9'.repeat(18)}`,
      'notanemoji',
      'abc:def',
      encodeURIComponent('a🔴'),
      encodeURIComponent('🔴🔴'),
    ]) {
      const res = await bot(sandbox, 'PUT', `${reactions(id)}/${emoji}/@me`);
      expect(res, emoji).toMatchObject({ status: 400, body: { code: 10014, message: 'Unknown Emoji' } });
    }
    // Without Use External Emojis the other guild's emoji is refused.
    await denyBot(PermissionFlagsBits.UseExternalEmojis);
    const other = await post('another');
    expect((await bot(sandbox, 'PUT', `${reactions(other)}/comet:${emojis.orbitComet}/@me`)).status).toBe(
      403,
    );
    // A member reacts with this guild's emojis only.
    expect((await react(other, users.nia, `comet:${emojis.orbitComet}`)).status).toBe(400);
    expect((await react(other, users.nia, ROCKET)).status).toBe(200);
  });

  it('answers 10003, 10008 and 50013 as Discord does', async () => {
    const id = await post();
    expect((await bot(sandbox, 'PUT', `/channels/1/messages/${id}/reactions/${RED}/@me`)).body).toMatchObject(
      {
        code: 10003,
      },
    );
    const unknown = await bot(sandbox, 'PUT', `${reactions(channels.general)}/${RED}/@me`);
    expect(unknown).toMatchObject({ status: 404, body: { code: 10008, message: 'Unknown Message' } });
    for (const path of [`${RED}/@me`, `${RED}/${users.nia}`, RED, '']) {
      const res = await bot(sandbox, 'DELETE', `${reactions(channels.general)}${path ? `/${path}` : ''}`);
      expect(res.body, path).toMatchObject({ code: 10008 });
    }
    // Add Reactions is needed only for an emoji new on the message.
    await react(id, users.nia, '🔴');
    await denyBot(PermissionFlagsBits.AddReactions);
    const fresh = await bot(sandbox, 'PUT', `${reactions(id)}/${encodeURIComponent('🟢')}/@me`);
    expect(fresh).toMatchObject({ status: 403, body: { code: 50013, message: 'Missing Permissions' } });
    expect((await bot(sandbox, 'PUT', `${reactions(id)}/${RED}/@me`)).status).toBe(204);
    // Read Message History is always needed.
    await denyBot(PermissionFlagsBits.ReadMessageHistory);
    expect((await bot(sandbox, 'PUT', `${reactions(id)}/${ROCKET}/@me`)).body).toMatchObject({ code: 50013 });
    expect((await bot(sandbox, 'GET', `${reactions(id)}/${RED}`)).body).toMatchObject({ code: 50013 });
  });

  it('refuses a 21st distinct emoji with 30010, but not another reaction with one already there', async () => {
    const id = await post();
    const twenty = [...'😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙🥲😚🙂'];
    expect(twenty).toHaveLength(20);
    for (const emoji of twenty) expect((await react(id, users.nia, emoji)).status).toBe(200);
    const over = await bot(sandbox, 'PUT', `${reactions(id)}/${RED}/@me`);
    expect(over).toMatchObject({
      status: 400,
      body: { code: 30010, message: 'Maximum number of reactions reached (20)' },
    });
    expect((await react(id, users.mo, '🔴')).body).toMatchObject({ error: 'max_reactions' });
    expect((await bot(sandbox, 'PUT', `${reactions(id)}/${encodeURIComponent('😀')}/@me`)).status).toBe(204);
  });

  it('refuses a reaction to the message of a user who blocked the reactor with 90001', async () => {
    const posted = await control(sandbox, 'POST', '/messages', {
      guild_id: guilds.station,
      channel_id: channels.roles,
      author_id: users.nia,
      content: 'do not react',
    });
    const id = (posted.body as { id: string }).id;
    expect((await control(sandbox, 'PUT', `/users/${users.nia}/blocks/${SANDBOX_IDS.bot}`)).status).toBe(200);
    const blocked = await bot(sandbox, 'PUT', `${reactions(id)}/${RED}/@me`);
    expect(blocked).toMatchObject({ status: 403, body: { code: 90001, message: 'Reaction was blocked' } });
    await control(sandbox, 'DELETE', `/users/${users.nia}/blocks/${SANDBOX_IDS.bot}`);
    expect((await bot(sandbox, 'PUT', `${reactions(id)}/${RED}/@me`)).status).toBe(204);
  });

  it('lists who reacted by user id: after, limit 1-100 (default 25), type 1 (burst) empty', async () => {
    const id = await post();
    for (const user of [users.nia, users.ada, users.mo]) await react(id, user, '🔴');
    await bot(sandbox, 'PUT', `${reactions(id)}/${RED}/@me`);
    const ids = async (query: string) =>
      ((await bot(sandbox, 'GET', `${reactions(id)}/${RED}${query}`)).body as Array<{ id: string }>).map(
        (u) => u.id,
      );
    expect(await ids('')).toEqual([SANDBOX_IDS.bot, users.ada, users.mo, users.nia]);
    expect(await ids('?limit=2')).toEqual([SANDBOX_IDS.bot, users.ada]);
    expect(await ids(`?limit=2&after=${users.ada}`)).toEqual([users.mo, users.nia]);
    expect(await ids('?type=1')).toEqual([]);
    const green = await bot(sandbox, 'GET', `${reactions(id)}/${encodeURIComponent('🟢')}`);
    expect(green).toMatchObject({ status: 200, body: [] });
    const user = ((await bot(sandbox, 'GET', `${reactions(id)}/${RED}?limit=1`)).body as object[])[0];
    expect(user).toMatchObject({ id: SANDBOX_IDS.bot, username: 'Space Cadet' });
    for (const [limit, code] of [
      ['0', 'NUMBER_TYPE_MIN'],
      ['101', 'NUMBER_TYPE_MAX'],
      ['x', 'NUMBER_TYPE_COERCE'],
    ]) {
      const res = await bot(sandbox, 'GET', `${reactions(id)}/${RED}?limit=${limit}`);
      expect(res).toMatchObject({
        status: 400,
        body: { code: 50035, errors: { limit: { _errors: [{ code }] } } },
      });
    }
  });

  it('removes another user’s reaction, one emoji’s or all of them with Manage Messages only', async () => {
    const id = await post();
    await react(id, users.nia, '🔴');
    await react(id, users.mo, '🔴');
    await react(id, users.nia, ROCKET);
    await bot(sandbox, 'PUT', `${reactions(id)}/${encodeURIComponent('🟢')}/@me`);
    const state = () => sandbox.state().guilds[0]?.channels.find((c) => c.id === channels.roles);
    const shown = () => state()?.messages.find((m) => m.id === id)?.reactions;
    expect(shown()?.map((r) => [r.emoji.name, r.user_ids])).toEqual([
      ['🔴', [users.nia, users.mo]],
      ['rocket', [users.nia]],
      ['🟢', [SANDBOX_IDS.bot]],
    ]);

    expect((await bot(sandbox, 'DELETE', `${reactions(id)}/${RED}/${users.nia}`)).status).toBe(204);
    expect(shown()?.[0]).toMatchObject({ count: 1, user_ids: [users.mo] });
    expect((await bot(sandbox, 'DELETE', `${reactions(id)}/${ROCKET}`)).status).toBe(204);
    expect(shown()?.map((r) => r.emoji.name)).toEqual(['🔴', '🟢']);

    await denyBot(PermissionFlagsBits.ManageMessages);
    for (const path of [`${RED}/${users.mo}`, RED, '']) {
      const res = await bot(sandbox, 'DELETE', `${reactions(id)}${path ? `/${path}` : ''}`);
      expect(res, path).toMatchObject({ status: 403, body: { code: 50013 } });
    }
    // Its own reaction needs no Manage Messages.
    expect((await bot(sandbox, 'DELETE', `${reactions(id)}/${encodeURIComponent('🟢')}/@me`)).status).toBe(
      204,
    );
    await control(sandbox, 'DELETE', `/channels/${channels.roles}/permissions/${roles.stationBot}`);
    expect((await bot(sandbox, 'DELETE', reactions(id))).status).toBe(204);
    expect(shown()).toBeUndefined();
    expect((await messageOf(id)).reactions).toBeUndefined();
  });

  it('reports Discord’s reaction bucket: one per 250 ms a channel, every emoji in the same bucket', async () => {
    const id = await post();
    const first = await bot(sandbox, 'PUT', `${reactions(id)}/${RED}/@me`);
    const second = await bot(sandbox, 'PUT', `${reactions(id)}/${ROCKET}/@me`);
    expect(first.headers.get('x-ratelimit-limit')).toBe('1');
    expect(Number(first.headers.get('x-ratelimit-reset-after'))).toBeLessThanOrEqual(0.25);
    expect(second.headers.get('x-ratelimit-bucket')).toBe(first.headers.get('x-ratelimit-bucket'));
    const list = await bot(sandbox, 'GET', `${reactions(id)}/${RED}`);
    expect(list.headers.get('x-ratelimit-limit')).toBe('50');
  });

  it('lists the guild’s custom emojis as Discord does (GET /guilds/:id/emojis, and in the guild)', async () => {
    const list = await bot(sandbox, 'GET', `/guilds/${guilds.station}/emojis`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: emojis.stationRocket,
        name: 'rocket',
        roles: [],
        require_colons: true,
        managed: false,
        animated: false,
        available: true,
      },
      expect.objectContaining({ id: emojis.stationParrot, name: 'party_parrot', animated: true }),
    ]);
    const guild = (await bot(sandbox, 'GET', `/guilds/${guilds.station}`)).body as { emojis: unknown[] };
    expect(guild.emojis).toEqual(list.body);
    const one = await bot(sandbox, 'GET', `/guilds/${guilds.station}/emojis/${emojis.orbitComet}`);
    expect(one).toMatchObject({ status: 404, body: { code: 10014 } });
    expect((await bot(sandbox, 'GET', `/guilds/${guilds.quiet}/emojis`)).body).toMatchObject({ code: 50001 });
  });
});

describe('reactions through the control API', () => {
  it('acts as the member, with the checks Discord makes for a user, and answers the reactions', async () => {
    const id = await post();
    const added = await react(id, users.nia, ROCKET);
    expect(added).toEqual({
      status: 200,
      body: {
        reactions: [
          {
            count: 1,
            count_details: { burst: 0, normal: 1 },
            me: false,
            me_burst: false,
            burst_colors: [],
            emoji: { id: emojis.stationRocket, name: 'rocket', animated: false },
            user_ids: [users.nia],
          },
        ],
      },
    });
    expect(await react(id, users.nia, ROCKET, 'DELETE')).toEqual({ status: 200, body: { reactions: [] } });

    expect((await react('1', users.nia, '🔴')).body).toMatchObject({ error: 'unknown_message' });
    expect((await react(id, users.rex, '🔴')).body).toMatchObject({ error: 'not_a_member' });
    expect((await react(id, users.nia, 'nope')).body).toMatchObject({ error: 'unknown_emoji' });
    await control(sandbox, 'PUT', `/channels/${channels.roles}/permissions/${users.nia}`, {
      type: 1,
      deny: PermissionFlagsBits.AddReactions.toString(),
    });
    const refused = await react(id, users.nia, '🔴');
    expect(refused).toMatchObject({ status: 403, body: { error: 'missing_permissions' } });
    await react(id, users.mo, '🔴');
    expect((await react(id, users.nia, '🔴')).status).toBe(200);
  });
});
