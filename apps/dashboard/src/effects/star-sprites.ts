import type { Star } from './stars.ts';

/**
 * Star and trail sprites, rendered once to small offscreen canvases: a frame is then one
 * `drawImage` per star (no gradients, paths or colour strings built per star per frame).
 */
export interface StarSprites {
  dot: HTMLCanvasElement;
  trail: HTMLCanvasElement;
}

/** Sprite resolution: big enough that the largest star (radius 1.7 at 2x) is drawn downscaled. */
const DOT_SIZE = 32;
const TRAIL_WIDTH = 8;
const TRAIL_LENGTH = 128;
/** A falling star's trail leans back by a third of its length (see stepStars: x moves 0.35 per y). */
const TRAIL_LEAN = 0.33;
const TRAIL_STRETCH = Math.hypot(1, TRAIL_LEAN);
const TRAIL_COS = 1 / TRAIL_STRETCH;
const TRAIL_SIN = -TRAIL_LEAN / TRAIL_STRETCH;

function spriteCanvas(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D | null] {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return [canvas, canvas.getContext('2d')];
}

let cached: StarSprites | null = null;

/** The sprites, made on first use and kept for the page's lifetime (a few KiB). */
export function starSprites(): StarSprites {
  if (cached) return cached;
  const [dot, dotCtx] = spriteCanvas(DOT_SIZE, DOT_SIZE);
  if (dotCtx) {
    dotCtx.fillStyle = 'rgb(235, 240, 255)';
    dotCtx.beginPath();
    dotCtx.arc(DOT_SIZE / 2, DOT_SIZE / 2, DOT_SIZE / 2, 0, Math.PI * 2);
    dotCtx.fill();
  }
  // The trail points up: its head (bright, white) at the bottom edge, its tail fading to blue.
  const [trail, trailCtx] = spriteCanvas(TRAIL_WIDTH, TRAIL_LENGTH);
  if (trailCtx) {
    const gradient = trailCtx.createLinearGradient(0, TRAIL_LENGTH, 0, 0);
    gradient.addColorStop(0, 'rgba(255, 255, 255, 1)');
    gradient.addColorStop(1, 'rgba(160, 180, 255, 0)');
    trailCtx.fillStyle = gradient;
    trailCtx.fillRect(0, 0, TRAIL_WIDTH, TRAIL_LENGTH);
  }
  cached = { dot, trail };
  return cached;
}

function twinkleAlpha(star: Star): number {
  return star.alpha * (0.75 + 0.25 * Math.sin(star.twinkle));
}

/** Draws one frame; `ratio` is the canvas's pixel ratio (its base transform). */
export function drawStars(
  ctx: CanvasRenderingContext2D,
  stars: readonly Star[],
  width: number,
  height: number,
  ratio: number,
  sprites: StarSprites,
): void {
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.globalAlpha = 1;
  ctx.clearRect(0, 0, width, height);
  let trails = false;
  for (const star of stars) {
    if (star.trail > 0) {
      // Rotate the upright trail sprite so it leans back along the star's path.
      trails = true;
      ctx.setTransform(
        ratio * TRAIL_COS,
        ratio * TRAIL_SIN,
        -ratio * TRAIL_SIN,
        ratio * TRAIL_COS,
        ratio * star.x,
        ratio * star.y,
      );
      const length = star.trail * TRAIL_STRETCH;
      ctx.globalAlpha = twinkleAlpha(star);
      ctx.drawImage(sprites.trail, -star.radius / 2, -length, star.radius, length);
    }
  }
  if (trails) ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  for (const star of stars) {
    ctx.globalAlpha = twinkleAlpha(star);
    const size = star.radius * 2;
    ctx.drawImage(sprites.dot, star.x - star.radius, star.y - star.radius, size, size);
  }
  ctx.globalAlpha = 1;
}
