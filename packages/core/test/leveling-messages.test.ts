import { describe, expect, it } from 'vitest';
import {
  buildDailyOverviewMessage,
  buildLeaderboardMessage,
  buildRankMessage,
  type DailyOverview,
  dailyOverviewHeading,
  LEVELING_TOP_COUNT,
  totalXpForLevel,
} from '../src/index.ts';

const day = '2026-11-23';

function overview(partial: Partial<DailyOverview> = {}): DailyOverview {
  return {
    day,
    top: [
      { userId: '200000000000000002', xp: 1250, level: 7 },
      { userId: '200000000000000001', xp: 40, level: 2 },
    ],
    activeMembers: 2,
    messages: 1,
    levelUps: 3,
    xp: 1290,
    ...partial,
  };
}

describe('daily overview message', () => {
  it('lists the top earners in the given order with XP gained and level, after the totals', () => {
    const { content, allowed_mentions } = buildDailyOverviewMessage(overview());
    expect(allowed_mentions).toEqual({ parse: [] });
    const lines = content.split('\n');
    expect(lines[0]).toBe(dailyOverviewHeading(day));
    expect(lines[0]).toContain(day);
    expect(lines[1]).toBe('💬 1 message from 2 members · ✨ 1,290 XP · ⬆️ 3 level-ups');
    expect(lines.slice(3)).toEqual([
      '**Top earners**',
      '1. <@200000000000000002>: +1,250 XP (level 7)',
      '2. <@200000000000000001>: +40 XP (level 2)',
    ]);
  });

  it('shows at most the top 10', () => {
    const top = Array.from({ length: 12 }, (_, i) => ({
      userId: `2000000000000001${i + 10}`,
      xp: 100 - i,
      level: 1,
    }));
    const { content } = buildDailyOverviewMessage(overview({ top, activeMembers: 12 }));
    const ranked = content.split('\n').filter((line) => /^\d+\. /.test(line));
    expect(ranked).toHaveLength(LEVELING_TOP_COUNT);
    expect(ranked.at(-1)).toMatch(/^10\. <@200000000000000119>: \+91 XP/);
  });

  it('says there was no activity on a day nobody earned XP, with no table', () => {
    const { content, allowed_mentions } = buildDailyOverviewMessage(
      overview({ top: [], activeMembers: 0, messages: 0, levelUps: 0, xp: 0 }),
    );
    expect(content).toBe(`${dailyOverviewHeading(day)}\nNo activity that day: nobody earned XP.`);
    expect(content).not.toContain('Top earners');
    expect(allowed_mentions).toEqual({ parse: [] });
  });

  it('counts the messages of a day on which members chatted but nobody earned XP', () => {
    const { content } = buildDailyOverviewMessage(
      overview({ top: [], activeMembers: 2, messages: 7, levelUps: 0, xp: 0 }),
    );
    expect(content.split('\n')).toEqual([
      dailyOverviewHeading(day),
      '💬 7 messages from 2 members · ✨ 0 XP · ⬆️ 0 level-ups',
      '',
      'Nobody earned XP that day.',
    ]);
  });
});

describe('/rank answer', () => {
  it('shows level, XP into the level out of the XP for the next, total XP and rank', () => {
    const xp = totalXpForLevel(3) + 40; // level 3 needs 5*9+150+100 = 295 for the next
    const { content, allowed_mentions } = buildRankMessage({
      userId: '200000000000000003',
      self: true,
      entry: { xp, rank: 2 },
    });
    expect(allowed_mentions).toEqual({ parse: [] });
    expect(content).toBe(
      `**Rank #2**: <@200000000000000003>\nLevel 3 · 40 / 295 XP to level 4 · ${xp} XP in total`,
    );
  });

  it('answers "no XP yet" for oneself and for another member', () => {
    expect(buildRankMessage({ userId: '1', self: true, entry: null }).content).toMatch(/^You have no XP yet/);
    expect(buildRankMessage({ userId: '200000000000000002', self: false, entry: null }).content).toBe(
      '<@200000000000000002> has no XP yet.',
    );
  });
});

describe('/leaderboard answer', () => {
  it('lists members by rank with level and XP', () => {
    const { content, allowed_mentions } = buildLeaderboardMessage({
      members: [
        { userId: '200000000000000002', xp: totalXpForLevel(10), rank: 1 },
        { userId: '200000000000000001', xp: 99, rank: 2 },
      ],
      total: 2,
    });
    expect(allowed_mentions).toEqual({ parse: [] });
    expect(content.split('\n')).toEqual([
      '🏆 **Leaderboard** (top 2 of 2 ranked members)',
      `1. <@200000000000000002>: level 10 · ${totalXpForLevel(10).toLocaleString('en-US')} XP`,
      '2. <@200000000000000001>: level 0 · 99 XP',
    ]);
  });

  it('says so when nobody has XP', () => {
    expect(buildLeaderboardMessage({ members: [], total: 0 }).content).toBe(
      'Nobody has earned XP in this server yet.',
    );
  });
});
