/** Star particle model for the background canvas; pure so it can be unit-tested. */
export const STAR_COUNT = 150;

export type StarVariant = 'falling' | 'drift';

export interface Star {
  x: number;
  y: number;
  radius: number;
  speed: number;
  alpha: number;
  twinkle: number;
  /** Length of the trail of a falling star (0: a plain dot). */
  trail: number;
}

type Random = () => number;

export function createStar(width: number, height: number, variant: StarVariant, random: Random): Star {
  const shooting = variant === 'falling' && random() < 0.06;
  return {
    x: random() * width,
    y: random() * height,
    radius: 0.4 + random() * 1.3,
    speed:
      variant === 'falling' ? (shooting ? 4 + random() * 4 : 0.15 + random() * 0.6) : 0.03 + random() * 0.12,
    alpha: 0.35 + random() * 0.65,
    twinkle: random() * Math.PI * 2,
    trail: shooting ? 40 + random() * 60 : 0,
  };
}

export function createStars(
  width: number,
  height: number,
  variant: StarVariant,
  random: Random = Math.random,
  count = STAR_COUNT,
): Star[] {
  return Array.from({ length: count }, () => createStar(width, height, variant, random));
}

/** Advances one frame (`dt` in 60 fps frames); stars leaving the bottom re-enter at the top. */
export function stepStars(
  stars: Star[],
  width: number,
  height: number,
  variant: StarVariant,
  dt: number,
  random: Random = Math.random,
): void {
  for (let i = 0; i < stars.length; i++) {
    const star = stars[i];
    if (!star) continue;
    star.y += star.speed * dt;
    if (variant === 'falling') star.x += star.speed * 0.35 * dt;
    star.twinkle += 0.03 * dt;
    if (star.y - star.trail > height || star.x > width + star.trail) {
      const next = createStar(width, height, variant, random);
      next.y = -next.trail - random() * 20;
      stars[i] = next;
    }
  }
}
