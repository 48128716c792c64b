import type { LevelingState } from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import {
  hasRankCardBackground,
  loadLevelingBoosts,
  loadLevelingRoles,
  loadLevelingSettings,
} from '@spacecadet/db/queries/leveling';
import { countRewardHolders } from '@spacecadet/db/queries/xp-tools';
import { deleteLongExpiredBoosts, toBoost } from './boosts.ts';
import { toRole } from './rewards.ts';
import { toSettings } from './settings.ts';

/** The Leveling page's state: settings, reward roles with their holders, and boosts. */

/** Reads the guild's leveling state as `GET …/leveling` answers it (long-expired boosts go first). */
export async function readLevelingState(db: Db, guildId: string): Promise<LevelingState> {
  await deleteLongExpiredBoosts(db, guildId);
  const [settings, roles, boosts, background] = await Promise.all([
    loadLevelingSettings(db, guildId),
    loadLevelingRoles(db, guildId),
    loadLevelingBoosts(db, guildId),
    hasRankCardBackground(db, guildId),
  ]);
  const holders = await countRewardHolders(db, guildId, roles, settings.rewardMode);
  return {
    leveling: toSettings(settings),
    roles: roles.map((role) => toRole(role, holders)),
    boosts: boosts.map(toBoost),
    rank_card_background: background,
  };
}
