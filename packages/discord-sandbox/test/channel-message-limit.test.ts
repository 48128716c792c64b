import type { TextChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { CHANNEL_MESSAGE_LIMIT } from '../src/rest/http.ts';
import { readyClient } from './discordjs-helpers.ts';
import { bot, control } from './helpers.ts';

const { guilds, channels, users } = SANDBOX_IDS;
const { limit } = CHANNEL_MESSAGE_LIMIT;
const post = (channelId: string, content = 'hello') =>
  bot(sandbox, 'POST', `/channels/${channelId}/messages`, { content });

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

/** The REST calls the sandbox answered 429. */
async function refusals(): Promise<number> {
  const requests = (await control(sandbox, 'GET', '/requests')).body as Array<{ status: number }>;
  return requests.filter((r) => r.status === 429).length;
}

describe("Discord's message bucket: 5 messages per 5 s in each channel", () => {
  it('is enforced by default, with the headers counting down and a user-scoped 429 past it', async () => {
    sandbox = await startSandbox({ port: 0 });
    expect((await control(sandbox, 'GET', '/route-rate-limits')).body).toEqual({
      enforce: false,
      channel_messages: true,
    });
    const remaining: Array<string | null> = [];
    let bucket: string | null = null;
    for (let i = 0; i < limit; i++) {
      const res = await post(channels.general);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      const resetAfter = Number(res.headers.get('x-ratelimit-reset-after'));
      expect(resetAfter).toBeGreaterThan(0);
      expect(resetAfter).toBeLessThanOrEqual(5);
      bucket ??= res.headers.get('x-ratelimit-bucket');
      expect(res.headers.get('x-ratelimit-bucket')).toBe(bucket);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);

    const refused = await post(channels.general);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
    expect(refused.headers.get('x-ratelimit-bucket')).toBe(bucket);
    expect(refused.headers.get('x-ratelimit-global')).toBeNull();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = refused.body as { message: string; retry_after: number; global: boolean };
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(5);

    // Another channel is another bucket (the channel is the major parameter); other routes and
    // members posting through the control API are not held to it.
    expect((await post(channels.roles)).status).toBe(200);
    expect((await bot(sandbox, 'GET', `/channels/${channels.general}/messages`)).status).toBe(200);
    const member = await control(sandbox, 'POST', '/messages', {
      guild_id: guilds.station,
      channel_id: channels.general,
      author_id: users.nia,
      content: 'me too',
    });
    expect(member.status).toBe(200);
    expect((await control(sandbox, 'GET', '/invalid-requests')).body).toMatchObject({ count: 1 });
  });

  it('holds DM channels to it too', async () => {
    sandbox = await startSandbox({ port: 0 });
    const dm = (await bot(sandbox, 'POST', '/users/@me/channels', { recipient_id: users.nia })).body as {
      id: string;
    };
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) statuses.push((await post(dm.id)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('costs a client that follows the headers no 429: discord.js waits for the bucket', async () => {
    sandbox = await startSandbox({ port: 0 });
    const client = await readyClient(sandbox);
    try {
      const channel = (await client.channels.fetch(channels.levelUps)) as TextChannel;
      const sent = [];
      for (let i = 0; i < limit + 2; i++) sent.push(channel.send(`level ${i}`));
      await Promise.all(sent);
      const stored = sandbox
        .state()
        .guilds.flatMap((g) => g.channels)
        .find((c) => c.id === channels.levelUps);
      expect(stored?.messages.map((m) => m.content)).toEqual(
        Array.from({ length: limit + 2 }, (_, i) => `level ${i}`),
      );
      expect(await refusals()).toBe(0);
    } finally {
      await client.destroy();
    }
  });

  it('can be turned off (control API or startSandbox), and a reset restores the configured setting', async () => {
    sandbox = await startSandbox({ port: 0 });
    expect((await control(sandbox, 'PUT', '/route-rate-limits', { channel_messages: false })).body).toEqual({
      enforce: false,
      channel_messages: false,
    });
    for (let i = 0; i <= limit + 1; i++) {
      const res = await post(channels.general);
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(1);
    }
    // Enforcing every bucket enforces this one as well.
    await control(sandbox, 'PUT', '/route-rate-limits', { enforce: true });
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) statuses.push((await post(channels.roles)).status);
    expect(statuses.at(-1)).toBe(429);

    await control(sandbox, 'POST', '/reset');
    expect((await control(sandbox, 'GET', '/route-rate-limits')).body).toEqual({
      enforce: false,
      channel_messages: true,
    });
    await sandbox.close();

    sandbox = await startSandbox({ port: 0, channelMessageLimit: false });
    expect((await control(sandbox, 'GET', '/route-rate-limits')).body).toMatchObject({
      channel_messages: false,
    });
    for (let i = 0; i <= limit; i++) expect((await post(channels.general)).status).toBe(200);
  });

  it('rejects a switch that is not true or false, or no switch at all', async () => {
    sandbox = await startSandbox({ port: 0 });
    for (const body of [
      {},
      { channel_messages: 'no' },
      { channel_messages: 0 },
      { enforce: true, channel_messages: null },
    ]) {
      const res = await control(sandbox, 'PUT', '/route-rate-limits', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
    }
    expect((await control(sandbox, 'GET', '/route-rate-limits')).body).toEqual({
      enforce: false,
      channel_messages: true,
    });
  });
});
