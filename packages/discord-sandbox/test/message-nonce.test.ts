import { type Client, Events, type Message, type TextChannel } from 'discord.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_IDS } from '../src/index.ts';
import { MESSAGE_NONCE_WINDOW_MS, messageOfNonce } from '../src/rest/message-nonce.ts';
import type { SandboxDispatch } from '../src/state.ts';
import { readyClient, sandboxPerTest, waitFor } from './discordjs-helpers.ts';
import { bot, control } from './helpers.ts';
import { schemaOf } from './openapi-spec.ts';

const { channels, users } = SANDBOX_IDS;
const { sandbox, keep } = sandboxPerTest();

type Posted = { id: string; channel_id: string; nonce?: string | number };

const post = async (channelId: string, body: Record<string, unknown>) => {
  const res = await bot(sandbox(), 'POST', `/channels/${channelId}/messages`, body);
  return { status: res.status, body: res.body as Posted & { code?: number; errors?: unknown } };
};

/** The MESSAGE_CREATEs the sandbox sends from now on. */
function messageCreates(): SandboxDispatch[] {
  const seen: SandboxDispatch[] = [];
  sandbox().world.events.on('dispatch', (event: SandboxDispatch) => {
    if (event.t === 'MESSAGE_CREATE') seen.push(event);
  });
  return seen;
}

const storedIn = (channelId: string) =>
  sandbox()
    .state()
    .guilds.flatMap((g) => g.channels)
    .find((c) => c.id === channelId)?.messages ?? [];

describe('create message with a nonce (enforce_nonce)', () => {
  it('answers the message already made with a repeated nonce: same id, nothing new posted, one MESSAGE_CREATE', async () => {
    const creates = messageCreates();
    const body = { content: 'Level 5!', nonce: 'lvl-5-nia', enforce_nonce: true };
    const first = await post(channels.levelUps, body);
    const again = await post(channels.levelUps, body);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(first.body.nonce).toBe('lvl-5-nia');
    expect(again.body.nonce).toBe('lvl-5-nia');
    expect(storedIn(channels.levelUps).map((m) => m.id)).toEqual([first.body.id]);
    expect(creates).toHaveLength(1);
    expect(creates[0]?.d).toMatchObject({ id: first.body.id, nonce: 'lvl-5-nia' });
    // Discord's answer fits its MessageResponse; a fetch does not carry the nonce (it is not kept).
    const parsed = z.safeParse(schemaOf('MessageResponse'), first.body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const fetched = await bot(sandbox(), 'GET', `/channels/${channels.levelUps}/messages/${first.body.id}`);
    expect(fetched.body).not.toHaveProperty('nonce');
  });

  it('posts again without enforce_nonce, with another nonce, or once the window has passed', async () => {
    const first = await post(channels.levelUps, { content: 'a', nonce: 'n-1', enforce_nonce: true });
    const unenforced = await post(channels.levelUps, { content: 'a', nonce: 'n-1' });
    const other = await post(channels.levelUps, { content: 'a', nonce: 'n-2', enforce_nonce: true });
    const integer = await post(channels.levelUps, { content: 'a', nonce: 12345, enforce_nonce: true });
    expect(new Set([first.body.id, unenforced.body.id, other.body.id, integer.body.id]).size).toBe(4);
    expect(integer.body.nonce).toBe(12345);
    await control(sandbox(), 'POST', '/clock', { advance_ms: MESSAGE_NONCE_WINDOW_MS + 1000 });
    const later = await post(channels.levelUps, { content: 'a', nonce: 'n-2', enforce_nonce: true });
    expect(later.status).toBe(200);
    expect(later.body.id).not.toBe(other.body.id);
    expect(storedIn(channels.levelUps)).toHaveLength(5);
  });

  it('keys the nonce on its author: another author has not used it', async () => {
    const first = await post(channels.general, { content: 'hello', nonce: 'shared', enforce_nonce: true });
    expect(messageOfNonce(sandbox().world, SANDBOX_IDS.app, 'shared')).toMatchObject({ id: first.body.id });
    expect(messageOfNonce(sandbox().world, users.nia, 'shared')).toBeNull();
  });

  it('answers 404 10008 when the message made with the nonce was deleted since', async () => {
    const body = { content: 'gone soon', nonce: 'deleted-one', enforce_nonce: true };
    const first = await post(channels.roles, body);
    await bot(sandbox(), 'DELETE', `/channels/${channels.roles}/messages/${first.body.id}`);
    const again = await post(channels.roles, body);
    expect(again).toEqual({ status: 404, body: { code: 10008, message: 'Unknown Message' } });
    expect(storedIn(channels.roles)).toEqual([]);
  });

  it('answers the earlier DM for a repeated nonce in the DM channel', async () => {
    const dm = (await bot(sandbox(), 'POST', '/users/@me/channels', { recipient_id: users.nia })).body as {
      id: string;
    };
    const body = { content: 'You reached level 2', nonce: 'dm-2', enforce_nonce: true };
    const first = await post(dm.id, body);
    const again = await post(dm.id, body);
    expect(first.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.nonce).toBe('dm-2');
    const listed = (await bot(sandbox(), 'GET', `/channels/${dm.id}/messages`)).body as Posted[];
    expect(listed.map((m) => m.id)).toEqual([first.body.id]);
  });

  it.each([
    ['a string over 25 characters', { nonce: 'x'.repeat(26) }, 'nonce', 'BASE_TYPE_MAX_LENGTH'],
    ['a number that is not an integer', { nonce: 1.5 }, 'nonce', 'NUMBER_TYPE_COERCE'],
    ['an integer beyond int64', { nonce: 2 ** 64 }, 'nonce', 'NUMBER_TYPE_COERCE'],
    ['an object', { nonce: { a: 1 } }, 'nonce', 'NONCE_TYPE_INVALID'],
    [
      'enforce_nonce that is not a boolean',
      { nonce: 'ok', enforce_nonce: 'yes' },
      'enforce_nonce',
      'BOOLEAN_TYPE_COERCE',
    ],
  ])('rejects %s with 50035 and posts nothing', async (_name, fields, field, code) => {
    const res = await post(channels.levelUps, { content: 'hi', enforce_nonce: true, ...fields });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { [field]: { _errors: [expect.objectContaining({ code })] } },
    });
    expect(storedIn(channels.levelUps)).toEqual([]);
  });

  it('gives discord.js the same message for a repeated enforceNonce send, with the nonce on messageCreate', async () => {
    const client: Client = keep(await readyClient(sandbox()));
    const channel = (await client.channels.fetch(channels.levelUps)) as TextChannel;
    const heard = waitFor<Message>((listener) => {
      client.on(Events.MessageCreate, listener);
      return () => client.off(Events.MessageCreate, listener);
    });
    const first = await channel.send({ content: 'Panel', nonce: 'panel-1', enforceNonce: true });
    const again = await channel.send({ content: 'Panel', nonce: 'panel-1', enforceNonce: true });
    expect(again.id).toBe(first.id);
    expect((await heard).nonce).toBe('panel-1');
    expect(storedIn(channels.levelUps)).toHaveLength(1);
  });
});
