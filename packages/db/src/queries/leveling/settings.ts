import {
  DEFAULT_LEVEL_CURVE,
  DEFAULT_LEVEL_UP_MESSAGE,
  type LeaderboardVisibility,
  type LevelCurve,
  type LevelUpDestination,
  type RewardMode,
  VOICE_MIN_MEMBERS_DEFAULT,
  type XpDecay,
} from '@spacecadet/contract';
import {
  MESSAGE_COOLDOWN_DEFAULT_SEC,
  XP_MULTIPLIER_DEFAULT,
  XP_PER_MESSAGE_DEFAULT,
} from '@spacecadet/core';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { type LevelingSettingsRow, levelingSettings } from '../../schema/leveling.ts';

/**
 * A guild's leveling settings: the stored row read with core's defaults filled in, saved,
 * deleted, and leveling turned on.
 */

export interface StoredLevelingSettings {
  enabled: boolean;
  xpMultiplier: number;
  announcementChannel: string | null;
  dailyOverviewChannel: string | null;
  /** Each counted message earns a random whole amount from xpMin to xpMax. */
  xpMin: number;
  xpMax: number;
  messageCooldownSec: number;
  noXpChannels: string[];
  noXpRoles: string[];
  levelUpMessage: string;
  levelUpDestination: LevelUpDestination;
  rewardMode: RewardMode;
  leaderboardVisibility: LeaderboardVisibility;
  voiceXpPerMinute: number;
  voiceMinMembers: number;
  levelCurve: LevelCurve;
  xpDecay: XpDecay | null;
  rankCardAccent: string | null;
  seasonMonths: number | null;
  seasonKeepRewards: boolean;
  seasonStartedAt: Date | null;
}

/** What a guild that never saved its leveling settings has (core's defaults, leveling off). */
export const DEFAULT_LEVELING_SETTINGS: Readonly<StoredLevelingSettings> = Object.freeze({
  enabled: false,
  xpMultiplier: XP_MULTIPLIER_DEFAULT,
  announcementChannel: null,
  dailyOverviewChannel: null,
  xpMin: XP_PER_MESSAGE_DEFAULT,
  xpMax: XP_PER_MESSAGE_DEFAULT,
  messageCooldownSec: MESSAGE_COOLDOWN_DEFAULT_SEC,
  noXpChannels: [],
  noXpRoles: [],
  levelUpMessage: DEFAULT_LEVEL_UP_MESSAGE,
  levelUpDestination: 'channel',
  rewardMode: 'stack',
  leaderboardVisibility: 'off',
  voiceXpPerMinute: 0,
  voiceMinMembers: VOICE_MIN_MEMBERS_DEFAULT,
  levelCurve: DEFAULT_LEVEL_CURVE,
  xpDecay: null,
  rankCardAccent: null,
  seasonMonths: null,
  seasonKeepRewards: true,
  seasonStartedAt: null,
});

export function storedLevelingSettings(row: LevelingSettingsRow | undefined): StoredLevelingSettings {
  if (!row) return { ...DEFAULT_LEVELING_SETTINGS, noXpChannels: [], noXpRoles: [] };
  return {
    enabled: row.enabled,
    xpMultiplier: row.xpMultiplier,
    announcementChannel: row.announcementChannel,
    dailyOverviewChannel: row.dailyOverviewChannel,
    xpMin: row.xpMin,
    xpMax: row.xpMax,
    messageCooldownSec: row.messageCooldownSec,
    noXpChannels: row.noXpChannels,
    noXpRoles: row.noXpRoles,
    levelUpMessage: row.levelUpMessage,
    levelUpDestination: row.levelUpDestination,
    rewardMode: row.rewardMode,
    leaderboardVisibility: row.leaderboardVisibility,
    voiceXpPerMinute: row.voiceXpPerMinute,
    voiceMinMembers: row.voiceMinMembers,
    levelCurve: row.levelCurve ?? DEFAULT_LEVEL_CURVE,
    xpDecay: row.xpDecay,
    rankCardAccent: row.rankCardAccent,
    seasonMonths: row.seasonMonths,
    seasonKeepRewards: row.seasonKeepRewards,
    seasonStartedAt: row.seasonStartedAt,
  };
}

export async function loadLevelingSettings(db: Db, guildId: string): Promise<StoredLevelingSettings> {
  const [row] = await db
    .select()
    .from(levelingSettings)
    .where(eq(levelingSettings.guildId, guildId))
    .limit(1);
  return storedLevelingSettings(row);
}

/** Many guilds' settings in one query (the worker reading thousands of cold guilds at once). */
export async function loadLevelingSettingsOf(
  db: Db,
  guildIds: readonly string[],
): Promise<Map<string, StoredLevelingSettings>> {
  const settings = new Map(guildIds.map((guildId) => [guildId, storedLevelingSettings(undefined)]));
  if (guildIds.length === 0) return settings;
  const rows = await db
    .select()
    .from(levelingSettings)
    .where(inArray(levelingSettings.guildId, [...guildIds]));
  for (const row of rows) settings.set(row.guildId, storedLevelingSettings(row));
  return settings;
}

/** Saves the given settings (the others keep their stored or default value); answers all of them. */
export async function saveLevelingSettings(
  db: Db,
  guildId: string,
  changes: Partial<StoredLevelingSettings>,
): Promise<StoredLevelingSettings> {
  const [row] = await db
    .insert(levelingSettings)
    .values({ guildId, ...changes })
    .onConflictDoUpdate({ target: levelingSettings.guildId, set: { ...changes, updatedAt: new Date() } })
    .returning();
  return storedLevelingSettings(row);
}

/** Back to the defaults: the settings row goes; reward roles, boosts and XP stay. */
export async function deleteLevelingSettings(db: Db, guildId: string): Promise<void> {
  await db.delete(levelingSettings).where(eq(levelingSettings.guildId, guildId));
}

/** Turns leveling on: adding a reward role or a boost does, as the dashboard expects. */
export async function enableLeveling(db: Db, guildId: string): Promise<void> {
  await db
    .insert(levelingSettings)
    .values({ guildId, enabled: true })
    .onConflictDoUpdate({ target: levelingSettings.guildId, set: { enabled: true, updatedAt: new Date() } });
}
