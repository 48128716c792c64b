import { PermissionFlagsBits } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { BOT_ROLE_PERMISSIONS } from '../src/fixture.ts';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { bot, clickWithoutBot, control, signIn } from './helpers.ts';
import { type Method, schemaOf, specResponses } from './openapi-spec.ts';

/**
 * Every REST answer the product relies on (API: sign-in, guild pickers and id checks; worker:
 * roles, members, messages, onboarding, commands and interaction answers) checked against
 * Discord's published OpenAPI description (npm `discord-api-spec`): the sandbox's status must
 * be one the spec gives the route, and its body must fit the spec's schema for that status.
 * A sandbox that drifts from Discord (a field missing or of another type, a status Discord
 * does not send) fails here.
 */

let sandbox: Sandbox;
const { guilds, channels, users, roles, app, emojis } = SANDBOX_IDS;
const RED = encodeURIComponent('🔴');
const ROCKET = `rocket:${emojis.stationRocket}`;
const table = specResponses();

interface Answer {
  method: Method;
  /** The spec's path template. */
  route: string;
  status: number;
  body: unknown;
}
const answers: Answer[] = [];

/** Calls the sandbox as the product does and keeps the answer under its spec route. */
async function call(
  method: Method,
  route: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<unknown> {
  let res: { status: number; body: unknown };
  if (token) {
    const response = await fetch(`${sandbox.apiBase}/v10${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    res = { status: response.status, body: await response.json() };
  } else {
    res = await bot(sandbox, method.toUpperCase(), path, body);
  }
  answers.push({ method, route, status: res.status, body: res.body });
  return res.body;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const g = guilds.station;
  const token = String((await signIn(sandbox, users.ada)).access_token);
  await call('get', '/users/@me', '/users/@me', undefined, token);
  await call('get', '/users/@me/guilds', '/users/@me/guilds', undefined, token);
  await call('get', '/gateway/bot', '/gateway/bot');
  // What `pnpm doctor` asks: the bot's own user, and the application with its redirect URIs and flags.
  await call('get', '/users/@me', '/users/@me');
  await call('get', '/applications/@me', '/applications/@me');
  await call('get', '/guilds/{guild_id}', `/guilds/${g}`);
  await call('get', '/guilds/{guild_id}/channels', `/guilds/${g}/channels`);
  await call('get', '/channels/{channel_id}', `/channels/${channels.roles}`);
  await call('get', '/guilds/{guild_id}/roles', `/guilds/${g}/roles`);
  await call('get', '/guilds/{guild_id}/emojis', `/guilds/${g}/emojis`);
  const role = (await call('post', '/guilds/{guild_id}/roles', `/guilds/${g}/roles`, {
    name: 'Red',
    color: 0xff0000,
  })) as { id: string };
  await call('patch', '/guilds/{guild_id}/roles/{role_id}', `/guilds/${g}/roles/${role.id}`, {
    name: 'Crimson',
  });
  await call('patch', '/guilds/{guild_id}/roles', `/guilds/${g}/roles`, [{ id: role.id, position: 2 }]);
  await call('get', '/guilds/{guild_id}/members/{user_id}', `/guilds/${g}/members/${users.nia}`);
  await call('get', '/guilds/{guild_id}/members', `/guilds/${g}/members?limit=1000`);
  await call('get', '/guilds/{guild_id}/members/search', `/guilds/${g}/members/search?query=ni&limit=5`);
  const memberRole = `/guilds/${g}/members/${users.nia}/roles/${role.id}`;
  await call('put', '/guilds/{guild_id}/members/{user_id}/roles/{role_id}', memberRole);
  await call('delete', '/guilds/{guild_id}/members/{user_id}/roles/{role_id}', memberRole);
  const message = (await call(
    'post',
    '/channels/{channel_id}/messages',
    `/channels/${channels.roles}/messages`,
    {
      embeds: [{ title: 'Pick a color', description: 'One click', color: 0x5865f2 }],
      components: [
        {
          type: 1,
          components: [{ type: 2, style: 2, label: 'Red', custom_id: 'color:red', emoji: { name: '🟥' } }],
        },
        {
          type: 1,
          components: [
            { type: 3, custom_id: 'pick', options: [{ label: 'A', value: 'a', emoji: { name: '🅰️' } }] },
          ],
        },
      ],
    },
  )) as { id: string };
  const one = `/channels/${channels.roles}/messages/${message.id}`;
  // Reactions (reaction roles): the bot's and a member's, so the message payloads carry them.
  const reaction = '/channels/{channel_id}/messages/{message_id}/reactions';
  await call('put', `${reaction}/{emoji_name}/@me`, `${one}/reactions/${RED}/@me`);
  await control(sandbox, 'POST', '/reactions', {
    guild_id: g,
    channel_id: channels.roles,
    message_id: message.id,
    user_id: users.nia,
    emoji: ROCKET,
  });
  await call('get', '/channels/{channel_id}/messages', `/channels/${channels.roles}/messages?limit=50`);
  await call('get', '/channels/{channel_id}/messages/{message_id}', one);
  await call('get', `${reaction}/{emoji_name}`, `${one}/reactions/${RED}?limit=10`);
  await call('delete', `${reaction}/{emoji_name}/{user_id}`, `${one}/reactions/${ROCKET}/${users.nia}`);
  await call('delete', `${reaction}/{emoji_name}/@me`, `${one}/reactions/${RED}/@me`);
  await call('put', `${reaction}/{emoji_name}/@me`, `${one}/reactions/${RED}/@me`);
  await call('delete', `${reaction}/{emoji_name}`, `${one}/reactions/${RED}`);
  await call('put', `${reaction}/{emoji_name}/@me`, `${one}/reactions/${RED}/@me`);
  await call('delete', reaction, `${one}/reactions`);
  await call('patch', '/channels/{channel_id}/messages/{message_id}', one, { content: 'edited' });
  // Onboarding needs Manage Server (the product asks for it where that feature is on).
  const permissions = (BigInt(BOT_ROLE_PERMISSIONS) | PermissionFlagsBits.ManageGuild).toString();
  await control(sandbox, 'PATCH', `/guilds/${g}/roles/${roles.stationBot}`, { permissions });
  await call('get', '/guilds/{guild_id}/onboarding', `/guilds/${g}/onboarding`);
  await call('put', '/guilds/{guild_id}/onboarding', `/guilds/${g}/onboarding`, {
    prompts: [
      {
        id: '0',
        type: 0,
        title: 'Pronouns?',
        single_select: true,
        required: false,
        in_onboarding: true,
        options: [{ title: 'they/them', role_ids: [role.id], channel_ids: [], emoji_name: '🌈' }],
      },
    ],
    default_channel_ids: [],
    enabled: false,
    mode: 0,
  });
  await call('put', '/applications/{application_id}/commands', `/applications/${app}/commands`, [
    { name: 'colors', description: 'Show the color panel', type: 1 },
  ]);
  await call('get', '/applications/{application_id}/commands', `/applications/${app}/commands`);
  await call('delete', '/channels/{channel_id}/messages/{message_id}', one);
  await call('delete', '/guilds/{guild_id}/roles/{role_id}', `/guilds/${g}/roles/${role.id}`);

  // An interaction answered as the worker answers: a callback, the @original edit, a follow-up.
  const { record } = await clickWithoutBot(sandbox);
  const interaction = record as { id: string; token: string };
  await call(
    'post',
    '/interactions/{interaction_id}/{interaction_token}/callback',
    `/interactions/${interaction.id}/${interaction.token}/callback`,
    {
      type: 5,
      data: { flags: 64 },
    },
  );
  const hook = `/webhooks/${app}/${interaction.token}`;
  await call(
    'patch',
    '/webhooks/{webhook_id}/{webhook_token}/messages/@original',
    `${hook}/messages/@original`,
    {
      content: 'Red is yours.',
    },
  );
  await call('post', '/webhooks/{webhook_id}/{webhook_token}', hook, {
    content: 'And one more thing',
    flags: 64,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

describe("the sandbox's REST answers fit Discord's OpenAPI description", () => {
  it('checks every route the product calls, each one known to the spec', () => {
    expect(answers.length).toBe(39);
    // The message read back carries the bot's and nia's reactions, so their shape is checked too.
    const read = answers.find((a) => a.route === '/channels/{channel_id}/messages/{message_id}');
    expect((read?.body as { reactions?: unknown[] } | undefined)?.reactions).toHaveLength(2);
    for (const answer of answers) {
      expect(table.get(answer.route)?.get(answer.method), `${answer.method} ${answer.route}`).toBeDefined();
    }
  });

  it('answers with a status and a body the spec gives each route', () => {
    const problems: string[] = [];
    for (const { method, route, status, body } of answers) {
      const responses = table.get(route)?.get(method) ?? [];
      const response = responses.find((r) => r.status === status);
      if (!response) {
        problems.push(
          `${method.toUpperCase()} ${route}: status ${status}, the spec has ${responses.map((r) => r.status).join(', ')} (${JSON.stringify(body)})`,
        );
        continue;
      }
      if (status === 204) continue;
      const result = z.safeParse(schemaOf(response.type), body);
      if (!result.success) {
        const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
        problems.push(`${method.toUpperCase()} ${route} (${response.type}): ${issues.join('; ')}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("the sandbox's errors fit Discord's error schema", () => {
  // The spec's ErrorResponse types `_errors[].code` as a number, but Discord sends strings
  // ("BASE_TYPE_REQUIRED", as its docs show); the envelope is checked against the spec here
  // and the nested 50035 tree in rest.test.ts.
  it('answers 4xx with an ErrorResponse envelope ({code, message}, errors optional)', async () => {
    const errors = [
      await bot(sandbox, 'GET', `/guilds/${guilds.station}/members/search`),
      await bot(sandbox, 'POST', `/channels/${channels.roles}/messages`, { content: 'x'.repeat(2001) }),
      await bot(sandbox, 'PATCH', `/guilds/${guilds.station}/roles`, [{ position: 'x' }]),
      await bot(sandbox, 'GET', '/guilds/1'),
      await bot(sandbox, 'PUT', `/channels/${channels.roles}/permissions/${roles.stationCrew}`, { type: 7 }),
      await bot(
        sandbox,
        'PUT',
        `/channels/${channels.roles}/messages/${channels.roles}/reactions/${RED}/@me`,
      ),
      await bot(sandbox, 'GET', `/guilds/${guilds.station}/emojis/${guilds.station}`),
    ];
    for (const res of errors) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      const parsed = z.safeParse(schemaOf('Error'), res.body);
      expect(parsed.success, JSON.stringify(res.body)).toBe(true);
    }
  });
});
