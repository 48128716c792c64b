import { botGuilds } from '@spacecadet/db/schema';
import {
  BOT_ROLE_PERMISSIONS,
  defaultFixture,
  EVERYONE_PERMISSIONS,
  makeBotRole,
  makeRole,
  type SandboxChannel,
  type SandboxFixture,
} from '@spacecadet/discord-sandbox';
import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startWorker } from '../src/worker.ts';
import { startHarness, waitFor } from './helpers.ts';

const CHANNELS = 4;
const ROLES = 4;
const MEMBERS = 3;

const snowflake = (kind: bigint, index: number): string => (kind * 10n ** 17n + BigInt(index)).toString();

/** `guilds` generated guilds the bot is in, each with a few channels, roles and members. */
function manyGuilds(guilds: number): SandboxFixture {
  const fixture = defaultFixture();
  const [category, text] = fixture.guilds[0]?.channels ?? [];
  const bot = fixture.users.find((user) => user.bot);
  if (!category || text?.type !== 0 || !bot) throw new Error('the default fixture changed shape');
  fixture.users = [bot];
  fixture.guilds = [];
  for (let g = 0; g < guilds; g += 1) {
    const guildId = snowflake(3n, g);
    const userIds = Array.from({ length: MEMBERS }, (_, m) => snowflake(4n, g * MEMBERS + m));
    for (const id of userIds)
      fixture.users.push({ id, username: `u${id}`, discriminator: '0', global_name: null, avatar: null });
    const roleIds = Array.from({ length: ROLES }, (_, r) => snowflake(5n, g * (ROLES + 1) + r));
    const botRoleId = snowflake(5n, g * (ROLES + 1) + ROLES);
    const channels: SandboxChannel[] = [{ ...category, id: snowflake(6n, g * CHANNELS), guild_id: guildId }];
    for (let c = 1; c < CHANNELS; c += 1) {
      const id = snowflake(6n, g * CHANNELS + c);
      channels.push({ ...text, id, guild_id: guildId, name: `c${c}`, parent_id: channels[0]?.id ?? null });
    }
    fixture.guilds.push({
      id: guildId,
      name: `Guild ${g}`,
      icon: null,
      owner_id: userIds[0] ?? bot.id,
      preferred_locale: 'en-US',
      roles: [
        makeRole(guildId, '@everyone', 0, EVERYONE_PERMISSIONS),
        ...roleIds.map((id, r) => makeRole(id, `Role ${r}`, r + 1, '0')),
        makeBotRole(botRoleId, ROLES + 1, bot.id, BOT_ROLE_PERMISSIONS),
      ],
      channels,
      members: [
        { user_id: bot.id, roles: [botRoleId], nick: null, joined_at: '2024-01-15T12:00:00.000Z' },
        ...userIds.map((user_id, m) => ({
          user_id,
          roles: [roleIds[m % ROLES] ?? ''],
          nick: null,
          joined_at: '2024-01-15T12:00:00.000Z',
        })),
      ],
    });
  }
  return fixture;
}

/**
 * Starts a worker (every feature) against `guilds` guilds; answers the REST requests it made
 * from its start until it is started (ready, commands registered, schedulers synced, taking
 * jobs) and bot_guilds holds every guild.
 */
async function startUp(guilds: number): Promise<string[]> {
  const harness = await startHarness(manyGuilds(guilds));
  const worker = await startWorker(harness.config());
  try {
    await waitFor(`${guilds} guilds in bot_guilds`, async () => {
      const [row] = await harness.database.db.select({ n: count() }).from(botGuilds);
      return row?.n === guilds;
    });
    expect(worker.client.guilds.cache.size).toBe(guilds);
    return harness.sandbox.world.requests.map((request) => `${request.method} ${request.path}`);
  } finally {
    await worker.close();
    await harness.close();
  }
}

describe('start-up cost', () => {
  it('makes the same REST requests for 20 guilds as for 200, none of them guild-scoped', async () => {
    const few = await startUp(20);
    const many = await startUp(200);
    expect(many.filter((request) => /\/guilds\//.test(request))).toEqual([]);
    expect(many.length).toBe(few.length);
    expect(many.sort()).toEqual(few.sort());
  }, 180_000);
});
