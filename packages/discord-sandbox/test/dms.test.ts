import { DiscordAPIError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_IDS } from '../src/index.ts';
import { setUserAcceptsDms } from '../src/testing.ts';
import { readyClient, sandboxPerTest } from './discordjs-helpers.ts';
import { bot, control } from './helpers.ts';
import { schemaOf, specResponses } from './openapi-spec.ts';

const { users, guilds } = SANDBOX_IDS;
const { sandbox, keep } = sandboxPerTest();

interface DmDump {
  dm_channels: Array<{
    id: string;
    recipient_id: string;
    messages: Array<{ content: string; author: { id: string } }>;
  }>;
}

describe('DMs from the bot', () => {
  it('opens one DM channel per user (type 1, the recipient), as Discord answers it', async () => {
    const first = await bot(sandbox(), 'POST', '/users/@me/channels', { recipient_id: users.nia });
    expect(first.status).toBe(200);
    const channel = first.body as { id: string; type: number; recipients: Array<{ id: string }> };
    expect(channel.type).toBe(1);
    expect(channel.recipients.map((u) => u.id)).toEqual([users.nia]);
    const again = await bot(sandbox(), 'POST', '/users/@me/channels', { recipient_id: users.nia });
    expect((again.body as { id: string }).id).toBe(channel.id);
    const response = specResponses()
      .get('/users/@me/channels')
      ?.get('post')
      ?.find((r) => r.status === 200);
    expect(response).toBeDefined();
    const parsed = z.safeParse(schemaOf('PrivateChannelResponse'), channel);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const read = await bot(sandbox(), 'GET', `/channels/${channel.id}`);
    expect(read.body).toEqual(channel);
  });

  it('refuses an unknown recipient (50033) and a missing one (50035)', async () => {
    const unknown = await bot(sandbox(), 'POST', '/users/@me/channels', { recipient_id: '123456789012345' });
    expect(unknown).toMatchObject({ status: 400, body: { code: 50033, message: 'Invalid Recipient(s)' } });
    const missing = await bot(sandbox(), 'POST', '/users/@me/channels', {});
    expect(missing).toMatchObject({ status: 400, body: { code: 50035 } });
  });

  it("records the bot's messages, readable back and listed in the state; discord.js user.send() works", async () => {
    const client = keep(await readyClient(sandbox()));
    const user = await client.users.fetch(users.nia);
    const sent = await user.send('You reached level 2!');
    expect(sent.content).toBe('You reached level 2!');
    const dm = await user.createDM();
    expect(dm.id).toBe(sent.channelId);
    const fetched = await dm.messages.fetch({ limit: 10 });
    expect([...fetched.values()].map((m) => m.content)).toEqual(['You reached level 2!']);
    const state = sandbox().state() as unknown as DmDump;
    expect(state.dm_channels).toEqual([
      {
        id: dm.id,
        recipient_id: users.nia,
        messages: [expect.objectContaining({ content: 'You reached level 2!' })],
      },
    ]);
  });

  it('answers 403 50007 to a user who refuses DMs, and again after the control endpoint allows them', async () => {
    await setUserAcceptsDms(sandbox().url, users.nia, false);
    const client = keep(await readyClient(sandbox()));
    const user = await client.users.fetch(users.nia);
    const error = await user.send('hello').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect(error).toMatchObject({ status: 403, code: 50007, message: 'Cannot send messages to this user' });
    expect((sandbox().state() as unknown as DmDump).dm_channels[0]?.messages).toEqual([]);
    await setUserAcceptsDms(sandbox().url, users.nia, true);
    await expect(user.send('hello')).resolves.toMatchObject({ content: 'hello' });
    const bad = await control(sandbox(), 'PUT', `/users/${users.nia}/dms`, { accept: 'no' });
    expect(bad.status).toBe(400);
  });

  it('answers 50007 when the user shares no server with the bot', async () => {
    await control(sandbox(), 'DELETE', `/guilds/${guilds.station}/members/${users.nia}`);
    const opened = await bot(sandbox(), 'POST', '/users/@me/channels', { recipient_id: users.nia });
    const id = (opened.body as { id: string }).id;
    const posted = await bot(sandbox(), 'POST', `/channels/${id}/messages`, { content: 'hi' });
    expect(posted).toMatchObject({
      status: 403,
      body: { code: 50007, message: 'Cannot send messages to this user' },
    });
  });
});
