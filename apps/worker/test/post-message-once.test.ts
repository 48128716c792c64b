import { messageNonce } from '@spacecadet/core/message-nonce';
import { SANDBOX_BOT_TOKEN, type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordApi, postMessageOnce } from '../src/discord-rest.ts';
import { SANDBOX_IDS } from './helpers.ts';

let sandbox: Sandbox;
let client: Client;
const channel = SANDBOX_IDS.channels.announcements;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  // REST only: posting needs no gateway session.
  client = new Client({ intents: [], rest: { api: sandbox.apiBase } });
  client.rest.setToken(SANDBOX_BOT_TOKEN);
});
afterAll(async () => {
  await client?.destroy();
  await sandbox?.close();
});

const postedIds = () =>
  sandbox
    .state()
    .guilds.flatMap((g) => g.channels)
    .find((c) => c.id === channel)
    ?.messages.map((m) => m.id) ?? [];

describe('postMessageOnce', () => {
  it('answers the message already made for the same post, and posts it again once that one was deleted', async () => {
    const nonce = messageNonce('test-post', channel, 1);
    const first = await postMessageOnce(client, channel, { content: 'Hello' }, nonce);
    const again = await postMessageOnce(client, channel, { content: 'Hello' }, nonce);
    expect(again.id).toBe(first.id);
    expect(postedIds()).toEqual([first.id]);

    // An admin deleted it: Discord answers the nonce 10008, so the post goes under its successor.
    await discordApi(client).channels.deleteMessage(channel, first.id);
    const reposted = await postMessageOnce(client, channel, { content: 'Hello' }, nonce);
    expect(reposted.id).not.toBe(first.id);
    const repeated = await postMessageOnce(client, channel, { content: 'Hello' }, nonce);
    expect(repeated.id).toBe(reposted.id);
    expect(postedIds()).toEqual([reposted.id]);
  });
});
