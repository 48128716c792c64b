import { DEFAULT_LEVEL_CURVE, type LevelCurve } from '@spacecadet/contract';

/**
 * The XP curve: what each level takes under the server's curve (a quadratic `a·L² + b·L + c`
 * or a table whose last step repeats), the total to reach a level, and the level of a total.
 * Every function takes the guild's curve; without one it is the default 5·L² + 50·L + 100.
 */

/** XP needed to go from level `level` to `level + 1`. */
export function xpToNextLevel(level: number, curve: LevelCurve = DEFAULT_LEVEL_CURVE): number {
  const l = Math.max(0, Math.floor(level));
  if (curve.kind === 'table') return curve.xp[Math.min(l, curve.xp.length - 1)] ?? 1;
  return curve.a * l * l + curve.b * l + curve.c;
}

/** Total XP a member needs to reach `level` from zero. */
export function totalXpForLevel(level: number, curve: LevelCurve = DEFAULT_LEVEL_CURVE): number {
  const l = Math.max(0, Math.floor(level));
  if (curve.kind === 'table') {
    let total = 0;
    const listed = Math.min(l, curve.xp.length);
    for (let k = 0; k < listed; k += 1) total += curve.xp[k] ?? 0;
    return total + (l - listed) * (curve.xp[curve.xp.length - 1] ?? 1);
  }
  // Closed form of sum_{k=0}^{l-1} (a·k² + b·k + c).
  return (curve.a * (l - 1) * l * (2 * l - 1)) / 6 + (curve.b * l * (l - 1)) / 2 + curve.c * l;
}

/** The level a member with `totalXp` has reached: the largest L with totalXpForLevel(L) ≤ XP. */
export function levelForTotalXp(totalXp: number, curve: LevelCurve = DEFAULT_LEVEL_CURVE): number {
  if (!Number.isFinite(totalXp) || totalXp <= 0) return 0;
  // Every level takes at least 1 XP, so the level is at most the XP: double, then bisect.
  let high = 1;
  while (totalXpForLevel(high, curve) <= totalXp) high *= 2;
  let low = high / 2 >= 1 && totalXpForLevel(high / 2, curve) <= totalXp ? high / 2 : 0;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (totalXpForLevel(mid, curve) <= totalXp) low = mid;
    else high = mid;
  }
  return low;
}

/** Where a member is within their current level, for rank cards and overviews. */
export function levelProgress(
  totalXp: number,
  curve: LevelCurve = DEFAULT_LEVEL_CURVE,
): { level: number; xpIntoLevel: number; xpForNext: number } {
  const xp = Math.max(0, Math.floor(Number.isFinite(totalXp) ? totalXp : 0));
  const level = levelForTotalXp(xp, curve);
  return {
    level,
    xpIntoLevel: xp - totalXpForLevel(level, curve),
    xpForNext: xpToNextLevel(level, curve),
  };
}

/** The level a member reached after earning XP, or null when the XP did not cross a level. */
export function levelUpAfter(
  previousXp: number,
  newXp: number,
  curve: LevelCurve = DEFAULT_LEVEL_CURVE,
): number | null {
  const before = levelForTotalXp(previousXp, curve);
  const after = levelForTotalXp(newXp, curve);
  return after > before ? after : null;
}

/** Levels 1..`levels` with the XP each takes and the total to reach it: the dashboard's preview. */
export function curvePreview(
  curve: LevelCurve,
  levels: number,
): { level: number; xp_for_level: number; total_xp: number }[] {
  return Array.from({ length: Math.max(0, Math.floor(levels)) }, (_, i) => ({
    level: i + 1,
    xp_for_level: xpToNextLevel(i, curve),
    total_xp: totalXpForLevel(i + 1, curve),
  }));
}

/** Whether two curves are the same rule (a table equal to the quadratic is still another rule). */
export function sameCurve(a: LevelCurve, b: LevelCurve): boolean {
  if (a.kind === 'table' && b.kind === 'table')
    return a.xp.length === b.xp.length && a.xp.every((x, i) => x === b.xp[i]);
  if (a.kind === 'quadratic' && b.kind === 'quadratic') return a.a === b.a && a.b === b.b && a.c === b.c;
  return false;
}
