import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { PROXY_NOT_SENT_HEADER } from '@spacecadet/contract';
import { SANDBOX_BOT_TOKEN, type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordRestOptions, isDiscordUnreachable, PROXY_CONNECTION_LOST } from '../src/discord-rest.ts';
import { SANDBOX_IDS } from './helpers.ts';

let sandbox: Sandbox;
/** A proxy address where nothing listens: what the worker sees while the proxy is down. */
let downProxy: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise((resolve) => server.close(resolve));
  downProxy = `http://127.0.0.1:${address.port}/api`;
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the worker REST options with DISCORD_PROXY_URL', () => {
  it('sends bot requests to the proxy only (down: they fail, none goes around it)', async () => {
    const rest = new REST({
      ...discordRestOptions({ discordApiBase: sandbox.apiBase, discordProxyUrls: [downProxy] }),
      retries: 0,
    }).setToken(SANDBOX_BOT_TOKEN);
    const before = sandbox.world.requests.length;
    await expect(rest.get(`/guilds/${SANDBOX_IDS.guilds.station}`)).rejects.toThrow(
      /ECONNREFUSED|fetch failed|connect/,
    );
    expect(sandbox.world.requests.length).toBe(before);
  });

  it('sends interaction callbacks and interaction webhooks straight to Discord', async () => {
    const rest = new REST({
      ...discordRestOptions({ discordApiBase: sandbox.apiBase, discordProxyUrls: [downProxy] }),
      retries: 0,
    }).setToken(SANDBOX_BOT_TOKEN);
    // Unknown interactions: Discord's own answer (not a refused connection) shows they went direct.
    await expect(
      rest.post(`/interactions/${SANDBOX_IDS.app}/not-a-token/callback`, { body: { type: 1 }, auth: false }),
    ).rejects.toMatchObject({ status: expect.any(Number) });
    await expect(
      rest.patch(`/webhooks/${SANDBOX_IDS.app}/not-a-token/messages/@original`, {
        body: { content: 'x' },
        auth: false,
      }),
    ).rejects.toMatchObject({ status: expect.any(Number) });
    const paths = sandbox.world.requests.map((request) => request.path);
    expect(paths).toContain(`/interactions/${SANDBOX_IDS.app}/not-a-token/callback`);
    expect(paths).toContain(`/webhooks/${SANDBOX_IDS.app}/not-a-token/messages/@original`);
  });

  it('without a proxy keeps discord.js own limits against DISCORD_API_BASE', () => {
    expect(discordRestOptions({ discordApiBase: sandbox.apiBase, discordProxyUrls: null })).toEqual({
      api: sandbox.apiBase,
    });
  });

  it('with several proxies, sends to the next when one takes no connection', async () => {
    const rest = new REST({
      ...discordRestOptions({
        discordApiBase: sandbox.apiBase,
        discordProxyUrls: [downProxy, sandbox.apiBase],
      }),
      retries: 0,
    }).setToken(SANDBOX_BOT_TOKEN);
    const before = sandbox.world.requests.length;
    const role = (await rest.post(`/guilds/${SANDBOX_IDS.guilds.station}/roles`, {
      body: { name: 'Next Proxy' },
    })) as {
      name: string;
    };
    expect(role.name).toBe('Next Proxy');
    expect(sandbox.world.requests.slice(before).filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('does not send a role create again when its proxy died after receiving it', async () => {
    // A proxy that dies with the request: it reads it, then its connection is cut.
    let received = 0;
    const dying = createHttpServer((req) => {
      received += 1;
      req.resume();
      req.on('end', () => req.socket.destroy());
    });
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    const address = dying.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      const rest = new REST({
        // discord.js's own retries on: the lost request must not be one of those it retries.
        ...discordRestOptions({
          discordApiBase: sandbox.apiBase,
          discordProxyUrls: [`http://127.0.0.1:${address.port}/api`, sandbox.apiBase],
        }),
      }).setToken(SANDBOX_BOT_TOKEN);
      const before = sandbox.world.requests.length;
      const failure = await rest
        .post(`/guilds/${SANDBOX_IDS.guilds.station}/roles`, { body: { name: 'Lost' } })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(failure).toMatchObject({ code: PROXY_CONNECTION_LOST });
      expect(isDiscordUnreachable(failure)).toBe(true);
      expect(received).toBe(1);
      // Not sent to the other proxy either: the dead one may have passed it on.
      expect(sandbox.world.requests.slice(before)).toHaveLength(0);
    } finally {
      await new Promise((resolve) => dying.close(resolve));
    }
  });

  it('sends to the next proxy when one answers that it sent nothing', async () => {
    // A proxy that does not know the active one: it gives every request back unsent.
    const lost = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', [PROXY_NOT_SENT_HEADER]: '1' });
      res.end(JSON.stringify({ message: 'No active Discord proxy answers', code: 0 }));
    });
    await new Promise<void>((resolve) => lost.listen(0, '127.0.0.1', resolve));
    const address = lost.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      const rest = new REST({
        ...discordRestOptions({
          discordApiBase: sandbox.apiBase,
          discordProxyUrls: [`http://127.0.0.1:${address.port}/api`, sandbox.apiBase],
        }),
        retries: 0,
      }).setToken(SANDBOX_BOT_TOKEN);
      const before = sandbox.world.requests.length;
      const role = (await rest.post(`/guilds/${SANDBOX_IDS.guilds.station}/roles`, {
        body: { name: 'Given Back' },
      })) as { name: string };
      expect(role.name).toBe('Given Back');
      expect(sandbox.world.requests.slice(before).filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await new Promise((resolve) => lost.close(resolve));
    }
  });
});
