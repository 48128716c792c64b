/**
 * Leveling rules: the XP curve, per-message XP, boosts and the clamps the dashboard and API
 * both apply to settings.
 */
import { MESSAGE_COOLDOWN_MAX_SEC, XP_PER_MESSAGE_MAX } from '@spacecadet/contract';

/** XP needed to go from level `level` to `level + 1`. */
export function xpToNextLevel(level: number): number {
  const l = Math.max(0, Math.floor(level));
  return 5 * l * l + 50 * l + 100;
}

/** Total XP a member needs to reach `level` from zero. */
export function totalXpForLevel(level: number): number {
  const l = Math.max(0, Math.floor(level));
  // Closed form of sum_{k=0}^{l-1} (5k^2 + 50k + 100).
  return (5 * (l - 1) * l * (2 * l - 1)) / 6 + 25 * l * (l - 1) + 100 * l;
}

/** The level a member with `totalXp` has reached. */
export function levelForTotalXp(totalXp: number): number {
  if (!Number.isFinite(totalXp) || totalXp <= 0) return 0;
  // Estimate from the cubic, then correct; avoids looping for huge XP values.
  let level = Math.max(0, Math.floor(Math.cbrt((totalXp * 6) / 10)) - 2);
  while (totalXpForLevel(level + 1) <= totalXp) level += 1;
  while (level > 0 && totalXpForLevel(level) > totalXp) level -= 1;
  return level;
}

/** Where a member is within their current level, for rank cards and overviews. */
export function levelProgress(totalXp: number): { level: number; xpIntoLevel: number; xpForNext: number } {
  const xp = Math.max(0, Math.floor(Number.isFinite(totalXp) ? totalXp : 0));
  const level = levelForTotalXp(xp);
  return { level, xpIntoLevel: xp - totalXpForLevel(level), xpForNext: xpToNextLevel(level) };
}

export function xpForMessage(input: { xpPerMessage: number; multiplier: number; boost: number }): number {
  const xp = Math.round(input.xpPerMessage * input.multiplier * input.boost);
  return Number.isFinite(xp) && xp > 0 ? xp : 0;
}

const ROLE_BOOST_PREFIX = '-role:';

export interface LevelingBoost {
  multiplier: number;
  /** null = server-wide; `-role:<id>` = role boost; else a user id. */
  userId: string | null;
  expiresAt: Date | string | null;
}

export type BoostTarget =
  | { kind: 'server' }
  | { kind: 'user'; userId: string }
  | { kind: 'role'; roleId: string };

export function boostTarget(userId: string | null): BoostTarget {
  if (userId === null || userId === '') return { kind: 'server' };
  if (userId.startsWith(ROLE_BOOST_PREFIX))
    return { kind: 'role', roleId: userId.slice(ROLE_BOOST_PREFIX.length) };
  return { kind: 'user', userId };
}

export function roleBoostUserId(roleId: string): string {
  return `${ROLE_BOOST_PREFIX}${roleId}`;
}

function isBoostActive(boost: Pick<LevelingBoost, 'expiresAt'>, now: Date): boolean {
  if (boost.expiresAt === null) return true;
  const expires = boost.expiresAt instanceof Date ? boost.expiresAt : new Date(boost.expiresAt);
  return !Number.isNaN(expires.getTime()) && expires.getTime() > now.getTime();
}

/** The largest active boost that applies to this member, or 1 when none does. */
export function activeBoostMultiplier(
  boosts: readonly LevelingBoost[],
  member: { userId: string; roleIds: readonly string[]; now: Date },
): number {
  const roles = new Set(member.roleIds);
  let best = 1;
  let found = false;
  for (const boost of boosts) {
    if (!isBoostActive(boost, member.now) || !Number.isFinite(boost.multiplier)) continue;
    const target = boostTarget(boost.userId);
    const applies =
      target.kind === 'server' ||
      (target.kind === 'user' && target.userId === member.userId) ||
      (target.kind === 'role' && roles.has(target.roleId));
    if (!applies) continue;
    if (!found || boost.multiplier > best) best = boost.multiplier;
    found = true;
  }
  return found ? best : 1;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

function clampInt(value: unknown, min: number, max: number, fallback: number): number {
  const n = toNumber(value);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.round(n)));
}

export const XP_PER_MESSAGE_DEFAULT = 10;
export const MESSAGE_COOLDOWN_DEFAULT_SEC = 30;
export const XP_MULTIPLIER_DEFAULT = 1;
const BOOST_MULTIPLIER_DEFAULT = 2;
export const LEVEL_ROLE_NAME_MAX = 100;
const LEVEL_ROLE_NAME_DEFAULT = 'Level Reward';
const LEVEL_REQUIRED_DEFAULT = 1;
export const MAX_LEVEL_ROLES = 15;

export function clampXpPerMessage(value: unknown): number {
  return clampInt(value, 0, XP_PER_MESSAGE_MAX, XP_PER_MESSAGE_DEFAULT);
}

export function clampCooldown(value: unknown): number {
  return clampInt(value, 0, MESSAGE_COOLDOWN_MAX_SEC, MESSAGE_COOLDOWN_DEFAULT_SEC);
}

/** XP multiplier: minimum 0, anything that is not a number falls back to 1. */
export function normalizeMultiplier(value: unknown): number {
  const n = toNumber(value);
  if (Number.isNaN(n)) return XP_MULTIPLIER_DEFAULT;
  if (n === Number.POSITIVE_INFINITY) return XP_MULTIPLIER_DEFAULT;
  return Math.max(0, n);
}

/** Boost multiplier: missing means the default 2; a bad value falls back to 1. */
export function normalizeBoostMultiplier(value: unknown): number {
  if (value === undefined || value === null || value === '') return BOOST_MULTIPLIER_DEFAULT;
  const n = toNumber(value);
  if (!Number.isFinite(n) || n < 0) return 1;
  return n;
}

export function normalizeLevelRoleName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  return name === '' ? LEVEL_ROLE_NAME_DEFAULT : name.slice(0, LEVEL_ROLE_NAME_MAX);
}

export function normalizeLevelRequired(value: unknown): number {
  const n = toNumber(value);
  if (!Number.isFinite(n)) return LEVEL_REQUIRED_DEFAULT;
  return Math.max(0, Math.floor(n));
}

/** Every reward role a member at `level` should hold (rewards stack). */
export function rewardRolesForLevel<T extends { levelRequired: number }>(
  roles: readonly T[],
  level: number,
): T[] {
  return roles
    .filter((role) => role.levelRequired <= level)
    .sort((a, b) => a.levelRequired - b.levelRequired);
}

/** The level a member reached after earning XP, or null when the XP did not cross a level. */
export function levelUpAfter(previousXp: number, newXp: number): number | null {
  const before = levelForTotalXp(previousXp);
  const after = levelForTotalXp(newXp);
  return after > before ? after : null;
}

/** `YYYY-MM-DD` of the UTC day `at` falls in: the key of `member_daily_xp`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC day the daily overview posted at `now` reports on (the day before). */
export function previousUtcDay(now: Date): string {
  return utcDay(new Date(now.getTime() - 86_400_000));
}

/**
 * The level-up announcement: the member is mentioned by id and only that mention may ping, so
 * a name such as "@everyone" or a role mention typed into a nickname pings nobody.
 */
export function levelUpAnnouncement(
  userId: string,
  level: number,
): { content: string; allowed_mentions: { parse: never[]; users: string[] } } {
  return {
    content: `🎉 <@${userId}> reached **level ${level}**!`,
    allowed_mentions: { parse: [], users: [userId] },
  };
}
