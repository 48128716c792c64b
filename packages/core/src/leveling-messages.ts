/**
 * What the bot says about leveling: the daily overview posted in the overview channel and the
 * answers of `/rank` and `/leaderboard`. Members are named by mention, and every message says
 * Discord must not ping anyone (`allowed_mentions.parse: []`), so a list of ten names never
 * notifies ten people.
 */
import type { LeaderboardPeriod, LevelCurve } from '@spacecadet/contract';
import { levelForTotalXp, levelProgress } from './level-curve.ts';

/** A message body (Discord's field names) whose mentions ping nobody. */
export interface QuietMessage {
  content: string;
  allowed_mentions: { parse: never[] };
}

/** How many earners the overview and the leaderboard list. */
export const LEVELING_TOP_COUNT = 10;

const numbers = new Intl.NumberFormat('en-US');
const n = (value: number) => numbers.format(value);
const plural = (count: number, one: string, many = `${one}s`) => `${n(count)} ${count === 1 ? one : many}`;
const mention = (userId: string) => `<@${userId}>`;

function quiet(lines: readonly string[]): QuietMessage {
  return { content: lines.join('\n'), allowed_mentions: { parse: [] } };
}

export interface DailyEarner {
  userId: string;
  /** XP gained that day. */
  xp: number;
  /** The member's level now. */
  level: number;
}

export interface DailyOverview {
  /** The UTC day reported on, `YYYY-MM-DD`. */
  day: string;
  /** The day's top earners, most XP first (at most `LEVELING_TOP_COUNT` are shown). */
  top: readonly DailyEarner[];
  /** Members who earned XP that day. */
  activeMembers: number;
  /** Messages that earned XP that day. */
  messages: number;
  /** Levels gained that day, all members together. */
  levelUps: number;
  /** XP earned that day, all members together. */
  xp: number;
}

/**
 * The first line of every overview of `day`: the worker looks for it in the channel to tell
 * whether a run that died while posting had already posted.
 */
export function dailyOverviewHeading(day: string): string {
  return `📊 **Daily overview for ${day}** (UTC)`;
}

/**
 * The overview of one day: totals (every member chat message, XP earned or not) and the top
 * earners (members who earned XP), or one sentence when nobody chatted.
 */
export function buildDailyOverviewMessage(overview: DailyOverview): QuietMessage {
  const heading = dailyOverviewHeading(overview.day);
  if (overview.activeMembers === 0) {
    return quiet([heading, 'No activity that day: nobody earned XP.']);
  }
  const totals = `💬 ${plural(overview.messages, 'message')} from ${plural(overview.activeMembers, 'member')} · ✨ ${n(overview.xp)} XP · ⬆️ ${plural(overview.levelUps, 'level-up')}`;
  if (overview.top.length === 0) return quiet([heading, totals, '', 'Nobody earned XP that day.']);
  const lines = [
    heading,
    totals,
    '',
    '**Top earners**',
    ...overview.top
      .slice(0, LEVELING_TOP_COUNT)
      .map(
        (earner, index) =>
          `${index + 1}. ${mention(earner.userId)}: +${n(earner.xp)} XP (level ${n(earner.level)})`,
      ),
  ];
  return quiet(lines);
}

export interface RankAnswerInput {
  userId: string;
  /** Whether the member asked about themself (changes the wording of "no XP yet"). */
  self: boolean;
  /** The member's total XP and rank, or null when they have none (or left). */
  entry: { xp: number; rank: number } | null;
  /** The server's level curve (the default one when absent). */
  curve?: LevelCurve;
}

/** `/rank`: level, progress into the level, total XP and rank. */
export function buildRankMessage(input: RankAnswerInput): QuietMessage {
  if (!input.entry) {
    return quiet([
      input.self
        ? 'You have no XP yet: chat in this server to earn some.'
        : `${mention(input.userId)} has no XP yet.`,
    ]);
  }
  const { level, xpIntoLevel, xpForNext } = levelProgress(input.entry.xp, input.curve);
  return quiet([
    `**Rank #${n(input.entry.rank)}**: ${mention(input.userId)}`,
    `Level ${n(level)} · ${n(xpIntoLevel)} / ${n(xpForNext)} XP to level ${n(level + 1)} · ${n(input.entry.xp)} XP in total`,
  ]);
}

export interface LeaderboardAnswerInput {
  /** `xp`: the period's XP; `levelXp`: the member's current XP, which makes the level (xp when absent). */
  members: readonly { userId: string; xp: number; levelXp?: number; rank: number }[];
  /** Every ranked member, not only the ones shown. */
  total: number;
  /** The server's level curve (the default one when absent). */
  curve?: LevelCurve;
  /** The board's period (all time when absent). */
  period?: LeaderboardPeriod;
}

/** How `/leaderboard` names each period: its title and its empty board. */
export const LEADERBOARD_PERIOD_TEXT: Readonly<Record<LeaderboardPeriod, { title: string; empty: string }>> =
  {
    all: { title: 'all time', empty: 'Nobody has earned XP in this server yet.' },
    season: { title: 'this season', empty: 'Nobody has earned XP this season yet.' },
    week: { title: 'this week', empty: 'Nobody has earned XP this week yet.' },
    month: { title: 'this month', empty: 'Nobody has earned XP this month yet.' },
  };

/** `/leaderboard`: the top members by the period's XP with their level. */
export function buildLeaderboardMessage(input: LeaderboardAnswerInput): QuietMessage {
  const text = LEADERBOARD_PERIOD_TEXT[input.period ?? 'all'];
  if (input.members.length === 0) return quiet([text.empty]);
  const shown = input.members.slice(0, LEVELING_TOP_COUNT);
  const title = input.period === undefined || input.period === 'all' ? '' : `, ${text.title}`;
  return quiet([
    `🏆 **Leaderboard**${title} (top ${n(shown.length)} of ${plural(input.total, 'ranked member')})`,
    ...shown.map(
      (member) =>
        `${n(member.rank)}. ${mention(member.userId)}: level ${n(levelForTotalXp(member.levelXp ?? member.xp, input.curve))} · ${n(member.xp)} XP`,
    ),
  ]);
}

export const LEVELING_DISABLED_MESSAGE =
  'Leveling is turned off in this server. An admin can turn it on in the dashboard (Leveling → Settings).';

/** The History entry of a season's end, by an admin or by the schedule (`automatic`). */
export function seasonEndSummary(season: {
  name: string;
  members: number;
  keepRewards: boolean;
  automatic: boolean;
}): string {
  const rewards = season.keepRewards ? 'reward roles kept' : 'reward roles removed';
  const how = season.automatic ? ' on schedule' : '';
  return `Ended the season "${season.name}"${how}: ${plural(season.members, 'member')} archived, ${rewards}`;
}
