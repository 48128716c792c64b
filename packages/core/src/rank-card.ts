import type { LevelCurve } from '@spacecadet/contract';
import { levelProgress, totalXpForLevel } from './level-curve.ts';

/** Discord's blurple: the rank card's accent when the bot has no colored role in the server. */
export const DEFAULT_ACCENT_COLOR = 0x5865f2;

/**
 * The server's accent color: the color of the bot's highest colored role there (the color
 * Discord paints the bot's name with), else blurple. A role without a color has color 0.
 */
export function accentColor(botRoles: readonly { color: number; position: number }[]): number {
  let best: { color: number; position: number } | null = null;
  for (const role of botRoles) {
    if (role.color === 0) continue;
    if (!best || role.position > best.position) best = role;
  }
  return best?.color ?? DEFAULT_ACCENT_COLOR;
}

/** `#rrggbb` as a number, or null when it is not such a color. */
export function parseAccentHex(value: string | null | undefined): number | null {
  if (!value || !/^#[0-9a-fA-F]{6}$/.test(value)) return null;
  return Number.parseInt(value.slice(1), 16);
}

/**
 * The card's accent: the member's own (`/rank-color`) when set, else the server's
 * (`rank_card_accent`), else the color of the bot's highest colored role (accentColor).
 */
export function cardAccent(choice: {
  member: string | null | undefined;
  server: string | null | undefined;
  botRoles: readonly { color: number; position: number }[];
}): number {
  return parseAccentHex(choice.member) ?? parseAccentHex(choice.server) ?? accentColor(choice.botRoles);
}

/** The card's size and where each part goes, in pixels (what @spacecadet/rank-card draws). */
export const RANK_CARD_LAYOUT = {
  width: 934,
  height: 282,
  padding: 28,
  avatar: { x: 44, y: 61, size: 160 },
  text: { x: 236, nameY: 118, statsY: 76, xpY: 168 },
  bar: { x: 236, y: 186, width: 650, height: 38 },
  fontSize: { name: 40, statLabel: 24, statValue: 48, xp: 24 },
} as const;

export interface RankCardInput {
  username: string;
  rank: number;
  totalXp: number;
  /** The server's level curve (the default one when absent). */
  curve?: LevelCurve;
}

/** What the card says: the numbers and labels, and the share of the bar to fill. */
export interface RankCardModel {
  username: string;
  rank: number;
  level: number;
  xpIntoLevel: number;
  xpForNext: number;
  totalXp: number;
  /** 0..1: how far into the level the member is. */
  progress: number;
  rankLabel: string;
  levelLabel: string;
  xpLabel: string;
  totalLabel: string;
}

/** 950, 1.2K, 34.5K, 1.2M: XP as a card shows it in little room. */
export function compactNumber(value: number): string {
  const n = Math.max(0, Math.floor(value));
  if (n < 1000) return String(n);
  const [divisor, suffix] = n < 1_000_000 ? [1000, 'K'] : n < 1_000_000_000 ? [1_000_000, 'M'] : [1e9, 'B'];
  const scaled = n / divisor;
  const text = scaled >= 100 ? String(Math.floor(scaled)) : (Math.floor(scaled * 10) / 10).toFixed(1);
  return `${text.replace(/\.0$/, '')}${suffix}`;
}

export function rankCardModel(input: RankCardInput): RankCardModel {
  const { level, xpIntoLevel, xpForNext } = levelProgress(input.totalXp, input.curve);
  const progress = xpForNext > 0 ? Math.min(1, Math.max(0, xpIntoLevel / xpForNext)) : 0;
  return {
    username: input.username,
    rank: input.rank,
    level,
    xpIntoLevel,
    xpForNext,
    totalXp: input.totalXp,
    progress,
    rankLabel: `#${input.rank.toLocaleString('en-US')}`,
    levelLabel: level.toLocaleString('en-US'),
    xpLabel: `${compactNumber(xpIntoLevel)} / ${compactNumber(xpForNext)} XP`,
    totalLabel: `${compactNumber(input.totalXp)} XP in total`,
  };
}

/** The card in words: its alt text and the description of the attachment. */
export function rankCardAltText(model: RankCardModel): string {
  const n = (v: number) => v.toLocaleString('en-US');
  return `Rank card of ${model.username}: rank #${n(model.rank)}, level ${n(model.level)}, ${n(model.xpIntoLevel)} of ${n(model.xpForNext)} XP to level ${n(model.level + 1)}, ${n(model.totalXp)} XP in total.`;
}

/** The member a rank card preview shows: rank #3, level 12, 40% of the way to level 13. */
export const RANK_CARD_SAMPLE = { rank: 3, level: 12, progress: 0.4 } as const;

/** The preview's card (the dashboard's): `username` (the admin's own name) at RANK_CARD_SAMPLE. */
export function sampleRankCardModel(username: string): RankCardModel {
  const start = totalXpForLevel(RANK_CARD_SAMPLE.level);
  const next = totalXpForLevel(RANK_CARD_SAMPLE.level + 1);
  return rankCardModel({
    username,
    rank: RANK_CARD_SAMPLE.rank,
    totalXp: start + Math.round((next - start) * RANK_CARD_SAMPLE.progress),
  });
}
