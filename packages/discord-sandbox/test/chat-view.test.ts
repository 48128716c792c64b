import { crc32, deflateSync } from 'node:zlib';
import { chromiumLaunchOptions } from '@spacecadet/testing';
import { chromium } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { bot } from './helpers.ts';

/** A real `width`×`height` PNG of one color, so a browser decodes it. */
function solidPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  await sandbox.close();
});

describe('chat view', () => {
  it('serves a self-contained page at / and /chat that polls the control API', async () => {
    for (const path of ['/', '/chat']) {
      const res = await fetch(`${sandbox.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain('data-testid="messages"');
      expect(html).toContain("'/_sandbox' + path");
      expect(html).not.toMatch(/<script[^>]+src=/);
    }
  });

  it('serves Discord CDN avatar and icon paths as generated images', async () => {
    const avatar = await fetch(
      `${sandbox.cdnBase}/avatars/${SANDBOX_IDS.users.ada}/0a1da0a1da0a1da0a1da0a1da0a1da0a.png?size=64`,
    );
    expect(avatar.headers.get('content-type')).toContain('image/svg+xml');
    expect(await avatar.text()).toContain('>A</text>');
    const icon = await fetch(`${sandbox.cdnBase}/icons/${SANDBOX_IDS.guilds.station}/abc.png?size=128`);
    expect(await icon.text()).toContain('>S</text>');
  });

  it('reports the bot offline in presence when no gateway session exists', async () => {
    const res = await fetch(`${sandbox.url}/_sandbox/presence`);
    expect(await res.json()).toEqual({ online: false, sessions: [] });
  });
});

describe('chat view in a browser', () => {
  it('says "This interaction failed", as Discord does, when the bot does not answer a click in time', async () => {
    // No bot is connected, so nobody answers; the sandbox gives up after 300 ms.
    const quick = await startSandbox({ port: 0, interactionTimeoutMs: 300 });
    const browser = await chromium.launch({
      ...chromiumLaunchOptions(),
    });
    try {
      const { guilds, channels, users } = SANDBOX_IDS;
      const page = await browser.newPage();
      await page.goto(`${quick.url}/?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`);
      await bot(quick, 'POST', `/channels/${channels.roles}/messages`, {
        content: 'panel',
        components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] }],
      });
      await page.locator('[data-custom-id="go"]:not([disabled])').click();
      const toast = page.locator('#toast');
      await toast.waitFor({ state: 'visible' });
      expect(await toast.textContent()).toBe('This interaction failed');
    } finally {
      await browser.close();
      await quick.close();
    }
  });

  it('shows an image attachment as the image, described by its alt text', async () => {
    const browser = await chromium.launch({
      ...chromiumLaunchOptions(),
    });
    try {
      const { guilds, channels, users } = SANDBOX_IDS;
      const form = new FormData();
      form.append('payload_json', JSON.stringify({ attachments: [{ id: '0', description: 'A grey card' }] }));
      form.append('files[0]', new Blob([solidPng(40, 20)], { type: 'image/png' }), 'card.png');
      const res = await fetch(`${sandbox.apiBase}/v10/channels/${channels.general}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}` },
        body: form,
      });
      expect(res.status).toBe(200);
      const page = await browser.newPage();
      await page.goto(
        `${sandbox.url}/?guild=${guilds.station}&user=${users.nia}&channel=${channels.general}`,
      );
      const image = page.locator('[data-testid="attachment-image"]');
      await image.waitFor();
      expect(await image.getAttribute('alt')).toBe('A grey card');
      // Decoded by the browser at its real size (a script string: this package has no DOM types).
      const size = `(() => { const img = document.querySelector('[data-testid="attachment-image"]');
        return img && img.complete && img.naturalWidth > 0 ? [img.naturalWidth, img.naturalHeight] : null; })()`;
      await page.waitForFunction(size);
      expect(await page.evaluate(size)).toEqual([40, 20]);
    } finally {
      await browser.close();
    }
  });

  it('shows reactions with counts under a message; a click toggles the acting member’s reaction', async () => {
    const browser = await chromium.launch({
      ...chromiumLaunchOptions(),
    });
    try {
      const { guilds, channels, users, emojis } = SANDBOX_IDS;
      const posted = await bot(sandbox, 'POST', `/channels/${channels.roles}/messages`, { content: 'react' });
      const id = (posted.body as { id: string }).id;
      const reactions = `/channels/${channels.roles}/messages/${id}/reactions`;
      await bot(sandbox, 'PUT', `${reactions}/${encodeURIComponent('🔴')}/@me`);
      await bot(sandbox, 'PUT', `${reactions}/rocket:${emojis.stationRocket}/@me`);
      const page = await browser.newPage();
      await page.goto(`${sandbox.url}/?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`);
      const red = page.locator(`[data-message-id="${id}"] [data-testid="reaction"][data-emoji="🔴"]`);
      await red.waitFor();
      expect(await red.textContent()).toBe('🔴1');
      expect(await red.getAttribute('aria-pressed')).toBe('false');
      const rocket = page.locator(`[data-testid="reaction"][data-emoji="${emojis.stationRocket}"] img`);
      expect(await rocket.getAttribute('src')).toContain(`/emojis/${emojis.stationRocket}`);

      const shown = () =>
        sandbox
          .state()
          .guilds[0]?.channels.find((c) => c.id === channels.roles)
          ?.messages.find((m) => m.id === id)?.reactions?.[0];
      await red.click();
      await page.locator('[data-emoji="🔴"][aria-pressed="true"]').waitFor();
      expect(await red.textContent()).toBe('🔴2');
      expect(shown()?.user_ids).toEqual([SANDBOX_IDS.bot, users.nia]);
      await red.click();
      await page.locator('[data-emoji="🔴"][aria-pressed="false"]').waitFor();
      expect(shown()?.user_ids).toEqual([SANDBOX_IDS.bot]);
    } finally {
      await browser.close();
    }
  });

  it('fits a 390 px phone: the messages take the width, the sidebars stack, nothing scrolls sideways', async () => {
    const browser = await chromium.launch({
      ...chromiumLaunchOptions(),
    });
    try {
      const { guilds, channels, users } = SANDBOX_IDS;
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.goto(`${sandbox.url}/?guild=${guilds.station}&user=${users.nia}&channel=${channels.roles}`);
      await bot(sandbox, 'POST', `/channels/${channels.roles}/messages`, {
        embeds: [{ title: 'Gender', description: 'How do you identify?' }],
        components: [
          {
            type: 1,
            components: ['Male', 'Female', 'Non-binary', 'Genderfluid', 'Prefer not to say'].map(
              (label, i) => ({
                type: 2,
                style: 2,
                label,
                custom_id: `q:${i}`,
              }),
            ),
          },
          { type: 1, components: [{ type: 2, style: 4, label: 'Clear my answer', custom_id: 'q:clear' }] },
        ],
      });
      const clear = page.locator('[data-custom-id="q:clear"]');
      await clear.waitFor();
      // A string, so this package's tsconfig (no DOM lib) need not know the page's globals.
      const layout = (await page.evaluate(`(() => {
        const box = (id) => document.getElementById(id)?.getBoundingClientRect();
        return {
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          messages: box('messages')?.width ?? 0,
          roles: box('roles')?.height ?? 0,
          composer: box('composer')?.bottom ?? Number.POSITIVE_INFINITY,
        };
      })()`)) as { overflow: number; messages: number; roles: number; composer: number };
      expect(layout.overflow).toBeLessThanOrEqual(0);
      expect(layout.messages).toBeGreaterThan(350);
      expect(layout.roles).toBeGreaterThan(0);
      expect(layout.composer).toBeLessThanOrEqual(844);
      // The whole last message shows, its last row too.
      expect(await clear.isVisible()).toBe(true);
      const last = await clear.boundingBox();
      expect((last?.y ?? 0) + (last?.height ?? 0)).toBeLessThanOrEqual(layout.composer);
    } finally {
      await browser.close();
    }
  });
});
