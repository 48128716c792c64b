import { describe, expect, it } from 'vitest';
import { createStars, STAR_COUNT, stepStars } from './stars.ts';

/** A repeatable pseudo-random sequence. */
function seeded(seed = 1): () => number {
  let value = seed;
  return () => {
    value = (value * 16807) % 2147483647;
    return value / 2147483647;
  };
}

describe('stars', () => {
  it('makes 150 stars inside the canvas', () => {
    const stars = createStars(800, 600, 'falling', seeded());
    expect(stars).toHaveLength(STAR_COUNT);
    expect(STAR_COUNT).toBe(150);
    for (const star of stars) {
      expect(star.x).toBeGreaterThanOrEqual(0);
      expect(star.x).toBeLessThan(800);
      expect(star.y).toBeGreaterThanOrEqual(0);
      expect(star.y).toBeLessThan(600);
    }
  });

  it('moves falling stars down and to the right, re-entering at the top', () => {
    const random = seeded(7);
    const stars = createStars(800, 600, 'falling', random, 1);
    const [star] = stars;
    if (!star) throw new Error('no star');
    const { x, y } = star;
    stepStars(stars, 800, 600, 'falling', 1, random);
    expect(stars[0]?.y).toBeGreaterThan(y);
    expect(stars[0]?.x).toBeGreaterThan(x);
    for (let i = 0; i < 20_000; i++) stepStars(stars, 800, 600, 'falling', 3, random);
    expect(stars).toHaveLength(1);
    expect(stars[0]?.y).toBeLessThanOrEqual(600 + (stars[0]?.trail ?? 0));
  });
});
