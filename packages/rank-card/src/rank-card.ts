import { RANK_CARD_LAYOUT as L, type RankCardModel } from '@spacecadet/core';
import { type CardImage, cardImage, drawCardBase, fitted, font, hex, roundedRect } from './card-base.ts';

/**
 * The `/rank` card as a PNG: what members get from the worker and what admins preview through
 * the API (`GET …/leveling/rank-card/preview`), drawn by this one function.
 */

export interface RankCardPictures {
  /** The card's accent color (0xrrggbb). */
  accent: number;
  /** The server's background, drawn cover-fit and darkened under the text; none: the plain panel. */
  background?: CardImage | null;
  /** The member's avatar; none (or bytes that do not decode): their initial on the accent. */
  avatar?: CardImage | null;
}

/** Draws the card and encodes it (off the event loop) as PNG bytes. */
export async function renderRankCard(model: RankCardModel, pictures: RankCardPictures): Promise<Buffer> {
  const [avatar, background] = await Promise.all([
    cardImage(pictures.avatar),
    cardImage(pictures.background),
  ]);
  const { accent } = pictures;
  const { canvas, ctx } = drawCardBase(avatar, model.username, accent, background);
  const accentHex = hex(accent);

  // Rank and level, right-aligned on the top line: "RANK #3   LEVEL 12".
  const right = L.bar.x + L.bar.width;
  ctx.textAlign = 'right';
  let cursor = right;
  for (const [label, value, color] of [
    ['LEVEL', model.levelLabel, accentHex],
    ['RANK', model.rankLabel, '#ffffff'],
  ] as const) {
    ctx.font = font(700, L.fontSize.statValue);
    ctx.fillStyle = color;
    ctx.fillText(value, cursor, L.text.statsY);
    cursor -= ctx.measureText(value).width + 8;
    ctx.font = font(400, L.fontSize.statLabel);
    ctx.fillStyle = '#b5bac1';
    ctx.fillText(label, cursor, L.text.statsY);
    cursor -= ctx.measureText(label).width + 28;
  }

  // Name on the left, XP into the level on the right, above the bar.
  ctx.textAlign = 'left';
  ctx.font = font(700, L.fontSize.name);
  ctx.fillStyle = '#ffffff';
  ctx.fillText(fitted(ctx, model.username, L.bar.width * 0.6), L.text.x, L.text.nameY + 32);
  ctx.textAlign = 'right';
  ctx.font = font(400, L.fontSize.xp);
  ctx.fillStyle = '#dbdee1';
  ctx.fillText(model.xpLabel, right, L.text.xpY);
  ctx.textAlign = 'left';
  ctx.fillStyle = '#b5bac1';
  ctx.fillText(model.totalLabel, L.text.x, L.bar.y + L.bar.height + 32);

  // The bar: the track, then the share of the level done.
  const { x: bx, y: by, width: bw, height: bh } = L.bar;
  ctx.fillStyle = '#404249';
  roundedRect(ctx, bx, by, bw, bh, bh / 2);
  ctx.fill();
  if (model.progress > 0) {
    ctx.fillStyle = accentHex;
    roundedRect(ctx, bx, by, Math.max(bh, bw * model.progress), bh, bh / 2);
    ctx.fill();
  }

  return canvas.encode('png');
}
