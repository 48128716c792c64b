import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts, type Image, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { RANK_CARD_LAYOUT as L } from '@spacecadet/core';

/**
 * What every card of ours is drawn on (the rank card, the welcome card): @napi-rs/canvas (Skia,
 * prebuilt binaries, no system libraries) with Inter from @fontsource/inter registered by path,
 * so a card looks the same on a machine with no fonts at all. Layout numbers come from core's
 * RANK_CARD_LAYOUT. A server's own background, when set, fills the panel under the text.
 */

const require = createRequire(import.meta.url);
/** Inter's subsets, each a family of its own: a name falls back from one to the next per glyph. */
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'vietnamese'] as const;
const FAMILIES = SUBSETS.map((subset) => `"SpaceCadet Inter ${subset}"`).join(', ');
let fontsRegistered = false;

function registerFonts(): void {
  if (fontsRegistered) return;
  for (const subset of SUBSETS) {
    for (const weight of [400, 700]) {
      const file = require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff2`);
      GlobalFonts.registerFromPath(file, `SpaceCadet Inter ${subset}`);
    }
  }
  fontsRegistered = true;
}

export const font = (weight: 400 | 700, size: number) => `${weight} ${size}px ${FAMILIES}`;
export const hex = (color: number) => `#${color.toString(16).padStart(6, '0')}`;

/** A picture for a card: decoded already, or its PNG/JPEG bytes. */
export type CardImage = Image | Uint8Array;

/** Image bytes decoded, or null when they are not an image this canvas reads. */
export async function decodeImage(bytes: Uint8Array): Promise<Image | null> {
  try {
    return await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    return null;
  }
}

/** A card picture as an Image (bytes decoded; bytes that do not decode: null). */
export async function cardImage(image: CardImage | null | undefined): Promise<Image | null> {
  if (!image) return null;
  return image instanceof Uint8Array ? decodeImage(image) : image;
}

/** `text` cut with an ellipsis to fit `maxWidth` at the context's current font. */
export function fitted(ctx: SKRSContext2D, text: string, maxWidth: number): string {
  if (ctx.measureText(text).width <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 1 && ctx.measureText(`${chars.join('')}…`).width > maxWidth) chars.pop();
  return `${chars.join('')}…`;
}

export function roundedRect(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, Math.min(r, h / 2, w / 2));
}

/** A member without an avatar (or whose avatar did not load): their initial on the accent. */
function drawDefaultAvatar(ctx: SKRSContext2D, name: string, accent: number): void {
  const { x, y, size } = L.avatar;
  ctx.fillStyle = hex(accent);
  ctx.fillRect(x, y, size, size);
  ctx.fillStyle = '#ffffff';
  ctx.font = font(700, size * 0.45);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText([...name.trim()][0]?.toUpperCase() ?? '?', x + size / 2, y + size / 2 + 2);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
}

/** How dark the server's background is drawn under the text (0 = as is, 1 = black). */
export const BACKGROUND_SHADE = 0.55;

/** The server's background over the inner panel: cover-fit (cropped, centered), then darkened. */
function drawBackground(ctx: SKRSContext2D, image: Image): void {
  const x = L.padding / 2;
  const y = L.padding / 2;
  const w = L.width - L.padding;
  const h = L.height - L.padding;
  const scale = Math.max(w / image.width, h / image.height);
  const dw = image.width * scale;
  const dh = image.height * scale;
  ctx.save();
  roundedRect(ctx, x, y, w, h, 18);
  ctx.clip();
  ctx.drawImage(image, x + (w - dw) / 2, y + (h - dh) / 2, dw, dh);
  ctx.fillStyle = `rgba(0, 0, 0, ${BACKGROUND_SHADE})`;
  ctx.fillRect(x, y, w, h);
  ctx.restore();
}

/**
 * A new card canvas with what every card of ours shows: the rounded frame, and the member's
 * avatar in a circle with an accent ring (the rank card, the welcome card). Fonts registered.
 */
export function drawCardBase(
  avatar: Image | null,
  name: string,
  accent: number,
  background: Image | null = null,
) {
  registerFonts();
  const canvas = createCanvas(L.width, L.height);
  const ctx = canvas.getContext('2d');
  const accentHex = hex(accent);

  ctx.fillStyle = '#1e1f22';
  roundedRect(ctx, 0, 0, L.width, L.height, 24);
  ctx.fill();
  ctx.fillStyle = '#2b2d31';
  roundedRect(ctx, L.padding / 2, L.padding / 2, L.width - L.padding, L.height - L.padding, 18);
  ctx.fill();
  if (background) drawBackground(ctx, background);
  ctx.fillStyle = accentHex;
  ctx.fillRect(L.padding / 2, L.padding / 2 + 18, 6, L.height - L.padding - 36);

  // Avatar in a circle with an accent ring.
  const { x: ax, y: ay, size } = L.avatar;
  ctx.save();
  ctx.beginPath();
  ctx.arc(ax + size / 2, ay + size / 2, size / 2, 0, Math.PI * 2);
  ctx.clip();
  if (avatar) ctx.drawImage(avatar, ax, ay, size, size);
  else drawDefaultAvatar(ctx, name, accent);
  ctx.restore();
  ctx.strokeStyle = accentHex;
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.arc(ax + size / 2, ay + size / 2, size / 2 + 3, 0, Math.PI * 2);
  ctx.stroke();
  return { canvas, ctx };
}
