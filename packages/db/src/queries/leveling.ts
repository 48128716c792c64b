import {
  MESSAGE_COOLDOWN_DEFAULT_SEC,
  XP_MULTIPLIER_DEFAULT,
  XP_PER_MESSAGE_DEFAULT,
} from '@spacecadet/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { type LevelingSettingsRow, levelingSettings } from '../schema/leveling.ts';

/**
 * Leveling reads both the API and the worker make: the settings the dashboard shows are the
 * ones XP is earned with.
 */

export interface StoredLevelingSettings {
  enabled: boolean;
  xpMultiplier: number;
  announcementChannel: string | null;
  dailyOverviewChannel: string | null;
  xpPerMessage: number;
  messageCooldownSec: number;
}

/** What a guild that never saved its leveling settings has (core's defaults, leveling off). */
export const DEFAULT_LEVELING_SETTINGS: Readonly<StoredLevelingSettings> = Object.freeze({
  enabled: false,
  xpMultiplier: XP_MULTIPLIER_DEFAULT,
  announcementChannel: null,
  dailyOverviewChannel: null,
  xpPerMessage: XP_PER_MESSAGE_DEFAULT,
  messageCooldownSec: MESSAGE_COOLDOWN_DEFAULT_SEC,
});

export function storedLevelingSettings(row: LevelingSettingsRow | undefined): StoredLevelingSettings {
  if (!row) return { ...DEFAULT_LEVELING_SETTINGS };
  return {
    enabled: row.enabled,
    xpMultiplier: row.xpMultiplier,
    announcementChannel: row.announcementChannel,
    dailyOverviewChannel: row.dailyOverviewChannel,
    xpPerMessage: row.xpPerMessage,
    messageCooldownSec: row.messageCooldownSec,
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
