import { createCanvas, loadImage } from '@napi-rs/canvas';
import { RANK_CARD_LAYOUT as L, rankCardModel, totalXpForLevel } from '@spacecadet/core';
import { describe, expect, it } from 'vitest';
import { renderRankCard } from '../src/index.ts';

/** The color at (x, y) of a PNG, as 0xrrggbb. */
async function pixelOf(png: Buffer, x: number, y: number): Promise<number> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const [r = 0, g = 0, b = 0] = ctx.getImageData(x, y, 1, 1).data;
  return (r << 16) | (g << 8) | b;
}

const model = rankCardModel({ username: 'Ada', rank: 3, totalXp: totalXpForLevel(4) + 10 });
const barPoint = [L.bar.x + L.bar.height / 2, L.bar.y + L.bar.height / 2] as const;
const panelPoint = [L.width - L.padding, L.height - L.padding] as const;

describe('renderRankCard', () => {
  it('draws a PNG of the layout size with the accent in the bar', async () => {
    const png = await renderRankCard(model, { accent: 0x12ab34 });
    const image = await loadImage(png);
    expect([image.width, image.height]).toEqual([L.width, L.height]);
    expect(await pixelOf(png, ...barPoint)).toBe(0x12ab34);
  });

  it('takes the background as bytes and draws it under the text; bytes that do not decode are no background', async () => {
    const red = createCanvas(40, 20);
    const ctx = red.getContext('2d');
    ctx.fillStyle = '#ff0000';
    ctx.fillRect(0, 0, 40, 20);
    const bytes = await red.encode('png');
    const plain = await pixelOf(await renderRankCard(model, { accent: 0x5865f2 }), ...panelPoint);
    const withBackground = await pixelOf(
      await renderRankCard(model, { accent: 0x5865f2, background: bytes }),
      ...panelPoint,
    );
    expect(plain).toBe(0x2b2d31);
    // Red, darkened by the shade.
    expect(withBackground >> 16).toBeGreaterThan(0x50);
    expect(withBackground & 0xffff).toBe(0);
    const broken = await renderRankCard(model, { accent: 0x5865f2, background: Buffer.from('not an image') });
    expect(await pixelOf(broken, ...panelPoint)).toBe(plain);
  });
});
