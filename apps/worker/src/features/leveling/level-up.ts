import { levelUpAnnouncement } from '@spacecadet/core';
import type { LevelUp } from '@spacecadet/db/queries/member-xp';
import { Routes } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { channelScope } from '../../guild-scope.ts';
import { errorFields } from '../../logger.ts';
import { grantLevelRewards } from './rewards.ts';
import { levelingSetups } from './setup.ts';

/**
 * After a batch crossed levels: announce each in the guild's announcement channel (when set and
 * really the guild's) and grant the reward roles of the new level. Each crossing is reported
 * by exactly one writer (see writeXpBatch), so it is announced once. A member who crossed
 * several levels within one flush (a huge XP per message) hears of the highest only.
 */
export async function celebrateLevelUps(
  deps: WorkerDeps,
  guildId: string,
  levelUps: readonly LevelUp[],
): Promise<void> {
  const { settings } = await levelingSetups.get(deps, guildId);
  const channelId = settings.announcementChannel;
  const announce = channelId !== null && (await channelScope(deps.client, guildId, channelId)) === 'own';
  for (const up of levelUps) {
    try {
      if (announce && channelId) {
        await deps.client.rest.post(Routes.channelMessages(channelId), {
          body: levelUpAnnouncement(up.userId, up.level),
        });
      }
      await grantLevelRewards(deps, guildId, up.userId, up.level);
    } catch (error) {
      deps.logger.warn({ ...errorFields(error), guildId, userId: up.userId }, 'level-up handling failed');
    }
  }
}
