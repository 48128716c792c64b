import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMOJI_VIEW_SOURCE } from '../src/component-emoji.ts';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { bot, control } from './helpers.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  await sandbox.close();
});

const { channels } = SANDBOX_IDS;
const row = (...components: unknown[]) => ({ type: 1, components });
const button = (id: string, emoji: unknown) => ({ type: 2, style: 2, label: id, custom_id: id, emoji });
const select = (emoji: unknown) => ({
  type: 3,
  custom_id: 'pick',
  options: [{ label: 'Red', value: 'red', emoji }],
});
const post = (body: unknown) => bot(sandbox, 'POST', `/channels/${channels.roles}/messages`, body);
const CUSTOM = { id: '123456789012345678', name: 'blob', animated: true };

describe('component emoji', () => {
  it.each<[string, unknown]>([
    ['a coloured square', { name: '🟥' }],
    ['a square with a variation selector', { name: '⬛️' }],
    ['a ZWJ sequence with a skin tone', { name: '🧑🏽‍🚀' }],
    ['a keycap', { name: '#️⃣' }],
    ['a flag', { name: '🇫🇷' }],
    ['a custom emoji', CUSTOM],
    ['a custom emoji with a null name', { id: '123456789012345678', name: null }],
  ])('posts a button and a select option with %s and stores it as sent', async (_name, emoji) => {
    const res = await post({ components: [row(button('b', emoji)), row(select(emoji))] });
    expect(res.status).toBe(200);
    const message = res.body as {
      components: Array<{ components: Array<{ emoji?: unknown; options?: Array<{ emoji?: unknown }> }> }>;
    };
    expect(message.components[0]?.components[0]?.emoji).toEqual(emoji);
    expect(message.components[1]?.components[0]?.options?.[0]?.emoji).toEqual(emoji);
  });

  it.each<[string, unknown, string[], string]>([
    ['a word for a unicode name', { name: 'red_square' }, ['name'], 'BUTTON_COMPONENT_INVALID_EMOJI'],
    ['digits for a unicode name', { name: '123' }, ['name'], 'BUTTON_COMPONENT_INVALID_EMOJI'],
    ['an empty emoji', {}, ['name'], 'BUTTON_COMPONENT_INVALID_EMOJI'],
    ['a bare string', '🟥', [], 'MODEL_TYPE_CONVERT'],
    ['a non-snowflake id', { id: 'blob', name: 'blob' }, ['id'], 'NUMBER_TYPE_COERCE'],
    ['a non-boolean animated', { ...CUSTOM, animated: 'yes' }, ['animated'], 'BOOLEAN_TYPE_COERCE'],
  ])('rejects %s on a button and on a select option with 50035', async (_name, emoji, path, code) => {
    for (const [component, at] of [
      [button('b', emoji), ['components', '0', 'components', '0', 'emoji']],
      [select(emoji), ['components', '0', 'components', '0', 'options', '0', 'emoji']],
    ] as const) {
      const res = await post({ components: [row(component)] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
      let node = (res.body as { errors: Record<string, unknown> }).errors;
      for (const key of [...at, ...path]) node = node[key] as Record<string, unknown>;
      expect(node._errors).toEqual([expect.objectContaining({ code })]);
    }
    const state = (await control(sandbox, 'GET', '/state')).body as {
      guilds: Array<{ channels: Array<{ id: string; messages: unknown[] }> }>;
    };
    expect(state.guilds[0]?.channels.find((c) => c.id === channels.roles)?.messages).toEqual([]);
  });

  it('rejects an invalid emoji on an edit and keeps the message as it was', async () => {
    const posted = (await post({ components: [row(button('b', { name: '🟦' }))] })).body as { id: string };
    const edit = await bot(sandbox, 'PATCH', `/channels/${channels.roles}/messages/${posted.id}`, {
      components: [row(button('b', { name: 'nope' }))],
    });
    expect(edit.status).toBe(400);
    expect(edit.body).toMatchObject({ code: 50035 });
    const stored = await bot(sandbox, 'GET', `/channels/${channels.roles}/messages/${posted.id}`);
    expect(JSON.stringify(stored.body)).toContain('🟦');
  });
});

describe('chat view emoji', () => {
  // The exact source the served chat page runs.
  const emojiView = new Function(`${EMOJI_VIEW_SOURCE}; return emojiView;`)() as (
    emoji: unknown,
  ) => { text: string } | { src: string; alt: string } | null;

  it.each<[string, unknown, ReturnType<typeof emojiView>]>([
    ['unicode', { name: '🟥' }, { text: '🟥' }],
    [
      'custom',
      { id: '123456789012345678', name: 'blob' },
      { src: '/emojis/123456789012345678.webp?size=48', alt: ':blob:' },
    ],
    ['animated custom', CUSTOM, { src: '/emojis/123456789012345678.gif?size=48', alt: ':blob:' }],
    ['none', undefined, null],
    ['empty', {}, null],
  ])('draws a %s emoji', (_name, emoji, expected) => {
    expect(emojiView(emoji)).toEqual(expected);
  });

  it('serves the page with that source, and an image for a custom emoji', async () => {
    const html = await (await fetch(`${sandbox.url}/chat`)).text();
    expect(html).toContain(EMOJI_VIEW_SOURCE.trim());
    const image = await fetch(`${sandbox.url}/emojis/123456789012345678.webp?size=48`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toContain('image/svg+xml');
  });
});
