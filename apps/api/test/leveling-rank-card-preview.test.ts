import { createCanvas, loadImage } from '@napi-rs/canvas';
import { routePath, routes } from '@spacecadet/contract';
import { DEFAULT_ACCENT_COLOR, RANK_CARD_LAYOUT as L } from '@spacecadet/core';
import { levelingSettings, rankCardBackgrounds } from '@spacecadet/db/schema';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
let nia: string;
const station = GUILDS.station;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  nia = await signIn(h, USERS.nia);
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.database.db.delete(rankCardBackgrounds).where(eq(rankCardBackgrounds.guildId, station));
  await h.database.db.delete(levelingSettings).where(eq(levelingSettings.guildId, station));
});

const preview = (query = '', authorization = ada, guildId: string = station) =>
  h.app.inject({
    method: 'GET',
    url: `${routePath(routes.getRankCardPreview, { guildId })}${query}`,
    headers: { authorization },
  });

/** The color at a point of a PNG, as 0xrrggbb. */
async function pixels(png: Buffer) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return (x: number, y: number) => {
    const [r = 0, g = 0, b = 0] = ctx.getImageData(x, y, 1, 1).data;
    return (r << 16) | (g << 8) | b;
  };
}
/** Inside the filled part of the progress bar (the sample is 40% into its level). */
const barPoint = [L.bar.x + L.bar.height / 2, L.bar.y + L.bar.height / 2] as const;
/** The panel's lower right, where no text is drawn: the background shows there. */
const panelPoint = [L.width - L.padding, L.height - L.padding] as const;

describe('GET leveling/rank-card/preview', () => {
  it('is a PNG of the card size, not cached, in the default accent', async () => {
    const response = await preview();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('no-store');
    const png = response.rawPayload;
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    // IHDR: length, "IHDR", then width and height, big-endian.
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([L.width, L.height]);
    expect((await pixels(png))(...barPoint)).toBe(DEFAULT_ACCENT_COLOR);
  });

  it("with no accent chosen, draws the bot's highest colored role, as /rank does", async () => {
    const botRole = `${h.sandbox.url}/_sandbox/guilds/${station}/roles/${SANDBOX_IDS.roles.stationBot}`;
    const paint = (color: number) =>
      fetch(botRole, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ color }),
      });
    expect((await paint(0x2ecc71)).status).toBe(200);
    try {
      expect((await pixels((await preview()).rawPayload))(...barPoint)).toBe(0x2ecc71);
    } finally {
      await paint(DEFAULT_ACCENT_COLOR);
    }
  });

  it('draws the accent asked for, else the server accent', async () => {
    const asked = await preview('?accent=%2312AB34');
    expect(asked.statusCode, asked.body).toBe(200);
    expect((await pixels(asked.rawPayload))(...barPoint)).toBe(0x12ab34);
    await h.database.db.insert(levelingSettings).values({ guildId: station, rankCardAccent: '#AB1234' });
    expect((await pixels((await preview()).rawPayload))(...barPoint)).toBe(0xab1234);
    // The query (the form's unsaved choice) wins over the stored one.
    expect((await pixels((await preview('?accent=%2312AB34')).rawPayload))(...barPoint)).toBe(0x12ab34);
  });

  it('draws the stored background under the card', async () => {
    const plain = (await pixels((await preview()).rawPayload))(...panelPoint);
    const red = createCanvas(64, 32);
    const ctx = red.getContext('2d');
    ctx.fillStyle = '#ff0000';
    ctx.fillRect(0, 0, 64, 32);
    const upload = await h.app.inject({
      method: 'PUT',
      url: routePath(routes.putRankCardBackground, { guildId: station }),
      headers: { authorization: ada, 'content-type': 'image/png' },
      payload: await red.encode('png'),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const withBackground = (await pixels((await preview()).rawPayload))(...panelPoint);
    expect(plain).toBe(0x2b2d31);
    expect(withBackground).not.toBe(plain);
    // Red, darkened by the shade.
    expect(withBackground >> 16).toBeGreaterThan(0x50);
    expect(withBackground & 0xffff).toBe(0);
  });

  it('refuses an accent that is not #rrggbb with the accent message', async () => {
    for (const accent of ['red', '%23FFF', '%2312AB3G']) {
      const response = await preview(`?accent=${accent}`);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('The accent must be a color like #5865F2');
    }
  });

  it('is for the guild admins only', async () => {
    const anonymous = await h.app.inject({
      method: 'GET',
      url: routePath(routes.getRankCardPreview, { guildId: station }),
    });
    expect(anonymous.statusCode).toBe(401);
    // Nia is a plain member of Station; Ada does not manage Orbit.
    expect((await preview('', nia)).statusCode).toBe(403);
    expect((await preview('', ada, GUILDS.orbit)).statusCode).toBe(403);
  });

  it('is in the OpenAPI document as an image/png answer with its accent query', async () => {
    const docs = await h.app.inject({ url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const operation = docs.json<{
      paths: Record<
        string,
        {
          get?: {
            parameters?: Array<{ name: string; in: string }>;
            responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
          };
        }
      >;
    }>().paths['/api/guilds/{guildId}/leveling/rank-card/preview']?.get;
    expect(operation?.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['accent']);
    const content = operation?.responses['200']?.content ?? {};
    expect(Object.keys(content)).toEqual(['image/png']);
    expect(JSON.stringify(content['image/png']?.schema)).toMatch(/binary|RankCardPreviewPng/);
    expect(operation?.responses['400']?.content?.['application/json']).toBeDefined();
  });
});
