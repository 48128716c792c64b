import type { APIMessage } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { MAX_ATTACHMENTS, UPLOAD_LIMIT_BYTES } from '../src/rest/attachments.ts';
import { clickWithoutBot } from './helpers.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  await sandbox.close();
});

const { channels } = SANDBOX_IDS;

/** A 3×2 PNG header (signature + IHDR) followed by filler: enough for Discord to read its size. */
function png(width: number, height: number, extra = 16): Buffer {
  const head = Buffer.alloc(24 + extra);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'ascii');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return head;
}

type Part = { name: string; bytes: Buffer; filename: string; type?: string };

async function multipart(method: string, path: string, payload: unknown, files: Part[], auth = true) {
  const form = new FormData();
  if (payload !== undefined) form.append('payload_json', JSON.stringify(payload));
  for (const f of files) form.append(f.name, new Blob([f.bytes], { type: f.type ?? '' }), f.filename);
  const res = await fetch(`${sandbox.apiBase}/v10${path}`, {
    method,
    headers: auth ? { authorization: `Bot ${SANDBOX_BOT_TOKEN}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const card = (n = 0, bytes = png(640, 200)): Part => ({
  name: `files[${n}]`,
  bytes,
  filename: `card-${n}.png`,
  type: 'image/png',
});

describe('multipart message bodies', () => {
  it('records each file as Discord returns it and serves its bytes at the attachment URL', async () => {
    const bytes = png(640, 200);
    const text = Buffer.from('hello');
    const res = await multipart(
      'POST',
      `/channels/${channels.general}/messages`,
      { content: 'Your card', attachments: [{ id: '0', description: 'Rank card of nia' }] },
      [card(0, bytes), { name: 'files[1]', bytes: text, filename: 'notes.txt' }],
    );
    expect(res.status).toBe(200);
    const message = res.body as unknown as APIMessage;
    expect(message.content).toBe('Your card');
    expect(message.attachments).toHaveLength(2);
    const [image, note] = message.attachments;
    expect(image).toMatchObject({
      filename: 'card-0.png',
      description: 'Rank card of nia',
      content_type: 'image/png',
      size: bytes.length,
      width: 640,
      height: 200,
    });
    expect(image?.id).toMatch(/^\d{17,20}$/);
    expect(image?.url).toBe(`${sandbox.url}/attachments/${channels.general}/${image?.id}/card-0.png`);
    expect(image?.proxy_url).toEqual(expect.any(String));
    // An untyped part gets the type its name says, and no size when it is no image.
    expect(note).toMatchObject({ filename: 'notes.txt', content_type: 'text/plain; charset=utf-8', size: 5 });
    expect(note).not.toHaveProperty('width');

    const served = await fetch(image?.url ?? '');
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    const state = sandbox.state();
    const stored = state.guilds[0]?.channels.find((c) => c.id === channels.general)?.messages[0];
    expect(stored?.attachments.map((a) => [a.filename, a.content_type, a.size])).toEqual([
      ['card-0.png', 'image/png', bytes.length],
      ['notes.txt', 'text/plain; charset=utf-8', 5],
    ]);
  });

  it('takes a message of files alone, and refuses an empty one as before', async () => {
    const alone = await multipart('POST', `/channels/${channels.general}/messages`, {}, [card()]);
    expect(alone.status).toBe(200);
    const empty = await multipart('POST', `/channels/${channels.general}/messages`, { content: '' }, []);
    expect(empty.body).toMatchObject({ code: 50006 });
  });

  it(`refuses more than ${MAX_ATTACHMENTS} files with 50035 on attachments`, async () => {
    const files = Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, n) => card(n));
    const res = await multipart('POST', `/channels/${channels.general}/messages`, { content: 'x' }, files);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 50035,
      errors: { attachments: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } },
    });
    const ten = await multipart(
      'POST',
      `/channels/${channels.general}/messages`,
      { content: 'x' },
      files.slice(0, MAX_ATTACHMENTS),
    );
    expect(ten.status).toBe(200);
  });

  it('refuses files over the upload limit with 413 40005 and records nothing', async () => {
    const big = { name: 'files[0]', bytes: Buffer.alloc(UPLOAD_LIMIT_BYTES + 1), filename: 'big.bin' };
    const res = await multipart('POST', `/channels/${channels.general}/messages`, { content: 'x' }, [big]);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request entity too large', code: 40005 });
    const general = sandbox.state().guilds[0]?.channels.find((c) => c.id === channels.general);
    expect(general?.messages).toEqual([]);
  });

  it('refuses an attachments entry that names no file', async () => {
    const res = await multipart(
      'POST',
      `/channels/${channels.general}/messages`,
      { content: 'x', attachments: [{ id: '3' }] },
      [card(0)],
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 50035,
      errors: { attachments: { 0: { id: expect.anything() } } },
    });
  });

  it('checks the bot token before taking files', async () => {
    const res = await multipart(
      'POST',
      `/channels/${channels.general}/messages`,
      { content: 'x' },
      [card()],
      false,
    );
    expect(res.status).toBe(401);
  });
});

describe('editing a message with files', () => {
  async function posted(): Promise<APIMessage> {
    const res = await multipart('POST', `/channels/${channels.general}/messages`, { content: 'v1' }, [
      card(0),
      card(1),
    ]);
    return res.body as unknown as APIMessage;
  }
  const edit = (id: string, payload: unknown, files: Part[]) =>
    multipart('PATCH', `/channels/${channels.general}/messages/${id}`, payload, files);

  it('appends new files when the body has no attachments list', async () => {
    const message = await posted();
    const res = await edit(message.id, { content: 'v2' }, [card(0, png(10, 10))]);
    const after = res.body as unknown as APIMessage;
    expect(after.attachments.map((a) => a.id).slice(0, 2)).toEqual(message.attachments.map((a) => a.id));
    expect(after.attachments).toHaveLength(3);
    expect(after.attachments[2]).toMatchObject({ width: 10, height: 10 });
  });

  it('keeps only the listed attachments, old by id and new by file number, and forgets the rest', async () => {
    const message = await posted();
    const [first, second] = message.attachments;
    const res = await edit(message.id, { attachments: [{ id: first?.id }, { id: '0' }] }, [
      card(0, png(7, 7)),
    ]);
    const after = res.body as unknown as APIMessage;
    expect(after.content).toBe('v1');
    expect(after.attachments.map((a) => a.id)[0]).toBe(first?.id);
    expect(after.attachments).toHaveLength(2);
    expect(after.attachments[1]).toMatchObject({ width: 7, filename: 'card-0.png' });
    expect((await fetch(second?.url ?? '')).status).toBe(404);
    expect((await fetch(first?.url ?? '')).status).toBe(200);
  });

  it('removes every attachment with an empty list, and a JSON edit without the list keeps them', async () => {
    const message = await posted();
    const json = await fetch(`${sandbox.apiBase}/v10/channels/${channels.general}/messages/${message.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'v2' }),
    });
    expect(((await json.json()) as APIMessage).attachments).toHaveLength(2);
    const cleared = await edit(message.id, { attachments: [] }, []);
    expect((cleared.body as unknown as APIMessage).attachments).toEqual([]);
  });
});

describe('interaction answers with files', () => {
  it('takes files on the callback, follow-ups and @original edits', async () => {
    const { record, pending } = await clickWithoutBot(sandbox);
    const callback = await multipart(
      'POST',
      `/interactions/${record.id}/${record.token}/callback`,
      { type: 4, data: { content: 'card', attachments: [{ id: '0', description: 'alt' }] } },
      [card(0)],
      false,
    );
    expect(callback.status).toBe(204);
    await pending;
    const original = sandbox.state().interactions[0]?.original;
    expect(original?.attachments).toMatchObject([{ filename: 'card-0.png', description: 'alt', width: 640 }]);

    const followup = await multipart(
      'POST',
      `/webhooks/${SANDBOX_IDS.app}/${record.token}?wait=true`,
      { content: 'more' },
      [card(0), card(1)],
      false,
    );
    expect((followup.body as unknown as APIMessage).attachments).toHaveLength(2);

    const edited = await multipart(
      'PATCH',
      `/webhooks/${SANDBOX_IDS.app}/${record.token}/messages/@original`,
      { attachments: [{ id: '0' }] },
      [card(0, png(1, 1))],
      false,
    );
    expect((edited.body as unknown as APIMessage).attachments).toMatchObject([{ width: 1, height: 1 }]);
  });

  it('creates a deferred answer with its files on the first @original edit', async () => {
    const { record, pending } = await clickWithoutBot(sandbox);
    await multipart('POST', `/interactions/${record.id}/${record.token}/callback`, { type: 5 }, [], false);
    await pending;
    const res = await multipart(
      'PATCH',
      `/webhooks/${SANDBOX_IDS.app}/${record.token}/messages/@original`,
      { content: 'here', attachments: [{ id: '0' }] },
      [card(0)],
      false,
    );
    expect(res.status).toBe(200);
    expect((res.body as unknown as APIMessage).attachments).toMatchObject([{ filename: 'card-0.png' }]);
  });
});
