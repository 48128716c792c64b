/**
 * Leveling rules: the XP curve, per-message XP, boosts and the clamps the dashboard and API
 * both apply to settings.
 *
 * Why one file: the curve, the per-message XP, boosts and the settings' clamps are the one set of
 * rules the worker, the API and the dashboard must compute alike; each is a few short functions.
 */
import {
  DEFAULT_LEVEL_UP_MESSAGE,
  LEVEL_UP_MESSAGE_MAX,
  MESSAGE_COOLDOWN_MAX_SEC,
  type RewardMode,
  XP_PER_MESSAGE_MAX,
} from '@spacecadet/contract';

export function xpForMessage(input: { xpPerMessage: number; multiplier: number; boost: number }): number {
  const xp = Math.round(input.xpPerMessage * input.multiplier * input.boost);
  return Number.isFinite(xp) && xp > 0 ? xp : 0;
}

const ROLE_BOOST_PREFIX = '-role:';
const CHANNEL_BOOST_PREFIX = '-channel:';

export interface LevelingBoost {
  multiplier: number;
  /** null = server-wide; `-role:<id>` = role boost; `-channel:<id>` = channel boost; else a user id. */
  userId: string | null;
  expiresAt: Date | string | null;
}

export type BoostTarget =
  | { kind: 'server' }
  | { kind: 'user'; userId: string }
  | { kind: 'role'; roleId: string }
  | { kind: 'channel'; channelId: string };

export function boostTarget(userId: string | null): BoostTarget {
  if (userId === null || userId === '') return { kind: 'server' };
  if (userId.startsWith(ROLE_BOOST_PREFIX))
    return { kind: 'role', roleId: userId.slice(ROLE_BOOST_PREFIX.length) };
  if (userId.startsWith(CHANNEL_BOOST_PREFIX))
    return { kind: 'channel', channelId: userId.slice(CHANNEL_BOOST_PREFIX.length) };
  return { kind: 'user', userId };
}

export function roleBoostUserId(roleId: string): string {
  return `${ROLE_BOOST_PREFIX}${roleId}`;
}

export function channelBoostUserId(channelId: string): string {
  return `${CHANNEL_BOOST_PREFIX}${channelId}`;
}

function isBoostActive(boost: Pick<LevelingBoost, 'expiresAt'>, now: Date): boolean {
  if (boost.expiresAt === null) return true;
  const expires = boost.expiresAt instanceof Date ? boost.expiresAt : new Date(boost.expiresAt);
  return !Number.isNaN(expires.getTime()) && expires.getTime() > now.getTime();
}

/** The largest active multiplier among `boosts` that `applies`, or 1 when none does. */
function largestActive(
  boosts: readonly LevelingBoost[],
  now: Date,
  applies: (target: BoostTarget) => boolean,
): number {
  let best = 1;
  let found = false;
  for (const boost of boosts) {
    if (!isBoostActive(boost, now) || !Number.isFinite(boost.multiplier)) continue;
    if (!applies(boostTarget(boost.userId))) continue;
    if (!found || boost.multiplier > best) best = boost.multiplier;
    found = true;
  }
  return found ? best : 1;
}

/**
 * The boost a message earns with. The rule: the member's boost is the largest active one of the
 * server-wide boosts, the member's own and their roles' (1 when none applies); the channel's
 * boost is the largest active one of the message's channel (1 when none); the message earns
 * with their product. So a ×2 event in a ×0.5 channel earns ×1, and a channel boost of 0 makes
 * a channel earn nothing whatever the member's boost.
 */
export function activeBoostMultiplier(
  boosts: readonly LevelingBoost[],
  member: { userId: string; roleIds: readonly string[]; now: Date; channelId?: string },
): number {
  const roles = new Set(member.roleIds);
  const memberBoost = largestActive(
    boosts,
    member.now,
    (target) =>
      target.kind === 'server' ||
      (target.kind === 'user' && target.userId === member.userId) ||
      (target.kind === 'role' && roles.has(target.roleId)),
  );
  const channelBoost = largestActive(
    boosts,
    member.now,
    (target) => target.kind === 'channel' && target.channelId === member.channelId,
  );
  return memberBoost * channelBoost;
}

/**
 * Whether a message earns nothing because of where it was sent or who sent it: a no-XP channel,
 * or a member holding a no-XP role. Such a message starts no cooldown either.
 */
export function earnsNoXp(
  settings: { noXpChannels: readonly string[]; noXpRoles: readonly string[] },
  message: { channelId: string; roleIds: readonly string[] },
): boolean {
  if (settings.noXpChannels.includes(message.channelId)) return true;
  return settings.noXpRoles.length > 0 && message.roleIds.some((id) => settings.noXpRoles.includes(id));
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

export function clampInt(value: unknown, min: number, max: number, fallback: number): number {
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

/**
 * The reward roles a member at `level` should hold, lowest level first: every role up to the
 * level (`stack`, the default), or only the highest one reached (`highest`).
 */
export function rewardRolesForLevel<T extends { levelRequired: number }>(
  roles: readonly T[],
  level: number,
  mode: RewardMode = 'stack',
): T[] {
  const reached = roles
    .filter((role) => role.levelRequired <= level)
    .sort((a, b) => a.levelRequired - b.levelRequired);
  if (mode === 'stack' || reached.length === 0) return reached;
  const top = reached[reached.length - 1] as T;
  return reached.filter((role) => role.levelRequired === top.levelRequired);
}

/**
 * The reward roles a level-up from `previousLevel` to `level` gives (a level-up message's
 * `{rewards}`): of the rewards the member holds at `level` under `mode`, those of the levels
 * just crossed. One flush may cross several levels: `stack` names every reward crossed,
 * `highest` only the highest one reached, and only if it was crossed now.
 */
export function rewardRolesOfLevelUp<T extends { levelRequired: number }>(
  roles: readonly T[],
  previousLevel: number,
  level: number,
  mode: RewardMode,
): T[] {
  return rewardRolesForLevel(roles, level, mode).filter((role) => role.levelRequired > previousLevel);
}

/**
 * What to change so a member at `level` holds exactly the rewards of their level: the created
 * reward roles they should hold and lack (`add`), and the reward roles they hold but should not
 * (`remove`: above their level, or below the highest in `highest` mode). Roles that are no
 * reward are never touched.
 */
export function rewardRoleChanges<T extends { levelRequired: number; roleId: string | null }>(
  roles: readonly T[],
  level: number,
  mode: RewardMode,
  held: readonly string[],
): { add: T[]; remove: T[] } {
  const has = new Set(held);
  const wanted = new Set(
    rewardRolesForLevel(roles, level, mode).flatMap((r) => (r.roleId ? [r.roleId] : [])),
  );
  const add: T[] = [];
  const remove: T[] = [];
  const seen = new Set<string>();
  for (const role of roles) {
    if (!role.roleId || seen.has(role.roleId)) continue;
    seen.add(role.roleId);
    if (wanted.has(role.roleId) && !has.has(role.roleId)) add.push(role);
    else if (!wanted.has(role.roleId) && has.has(role.roleId)) remove.push(role);
  }
  return { add, remove };
}

/** `YYYY-MM-DD` of the UTC day `at` falls in: the key of `member_daily_xp`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC day the daily overview posted at `now` reports on (the day before). */
export function previousUtcDay(now: Date): string {
  return utcDay(new Date(now.getTime() - 86_400_000));
}

export interface LevelUpMessageValues {
  userId: string;
  /** The member's display name (nickname, global name or username). */
  username: string;
  level: number;
  /** The server's name. */
  server: string;
  /** Names of the reward roles just given, in level order (empty: none). */
  rewards: readonly string[];
}

const PLACEHOLDER = /\{(user|username|level|server|rewards)\}/g;

/**
 * The level-up message from the admin's template (blank: the default one): `{user}` is the
 * member's mention, `{username}` their name, `{level}` the new level, `{server}` the server's
 * name, `{rewards}` the names of the rewards just given (nothing when there are none: the
 * admin's own words around it are theirs to choose). Other braces stay as written; a message
 * that comes out blank (a template of only `{rewards}`) is the default one, as Discord posts
 * no empty message. Whatever the template or a name says (@everyone, a role mention),
 * only the member may be pinged. Cut to Discord's 2,000 characters, with an ellipsis.
 */
export function renderLevelUpMessage(
  template: string,
  values: LevelUpMessageValues,
): { content: string; allowed_mentions: { parse: never[]; users: string[] } } {
  const fill = (source: string) =>
    source.replace(PLACEHOLDER, (_, name: string) => {
      switch (name) {
        case 'user':
          return `<@${values.userId}>`;
        case 'username':
          return values.username;
        case 'level':
          return String(values.level);
        case 'server':
          return values.server;
        default:
          return values.rewards.join(', ');
      }
    });
  const own = template.trim() === '' ? '' : fill(template);
  const filled = own.trim() === '' ? fill(DEFAULT_LEVEL_UP_MESSAGE) : own;
  let content = filled;
  if (filled.length > LEVEL_UP_MESSAGE_MAX) {
    let end = LEVEL_UP_MESSAGE_MAX - 1;
    // Never cut a character in two (a high surrogate left without its pair).
    if (/[\uD800-\uDBFF]/.test(filled.charAt(end - 1))) end -= 1;
    content = `${filled.slice(0, end)}…`;
  }
  return { content, allowed_mentions: { parse: [], users: [values.userId] } };
}
