import { levelUpAnnouncement } from '@spacecadet/core';
import {
  claimDueLevelUps,
  finishLevelUp,
  markLevelUpAnnouncing,
  type PendingLevelUp,
} from '@spacecadet/db/queries/member-xp';
import type { WorkerDeps } from '../../deps.ts';
import { discordApi } from '../../discord-rest.ts';
import { channelScope } from '../../guild-scope.ts';
import { errorFields } from '../../logger.ts';
import { recentMessages } from './overview.ts';
import { grantLevelRewards } from './rewards.ts';
import { levelingSetups } from './setup.ts';

/**
 * How long the process delivering a level-up holds it: past this, another process delivers it
 * (its deliverer died). Far longer than a delivery takes, even behind a Discord rate limit.
 */
export const LEVEL_UP_LEASE_MS = 10_000;

/**
 * Celebrates recorded level-ups (see `pendingLevelUps`): announces each in the guild's
 * announcement channel (when set and really the guild's), grants the reward roles of the new
 * level, then deletes the record. Each is delivered once, by the batch's writer or, if it died
 * halfway, by whichever process claims it after its lease: a level-up marked `announcing` whose
 * message is already in the channel is not announced again, and rewards are only added where
 * missing. A member who crossed several levels within one flush hears of the highest only.
 */
export async function deliverLevelUps(
  deps: WorkerDeps,
  guildId: string,
  levelUps: readonly PendingLevelUp[],
): Promise<void> {
  const { settings } = await levelingSetups.get(deps, guildId);
  const channelId = settings.announcementChannel;
  const announce = channelId !== null && (await channelScope(deps.client, guildId, channelId)) === 'own';
  for (const up of levelUps) {
    try {
      if (announce && channelId && !(await announced(deps, channelId, up))) {
        if (!(await markLevelUpAnnouncing(deps.db, up))) continue;
        await discordApi(deps.client).channels.createMessage(
          channelId,
          levelUpAnnouncement(up.userId, up.level),
        );
      }
      await grantLevelRewards(deps, guildId, up.userId, up.level);
      await finishLevelUp(deps.db, up);
    } catch (error) {
      // Kept: delivered again once its lease lapses.
      deps.logger.warn({ ...errorFields(error), guildId, userId: up.userId }, 'level-up handling failed');
    }
  }
}

/** Whether an earlier delivery that died already posted this level-up's announcement. */
async function announced(deps: WorkerDeps, channelId: string, up: PendingLevelUp): Promise<boolean> {
  if (!up.announcing) return false;
  const { content } = levelUpAnnouncement(up.userId, up.level);
  const botId = deps.client.user?.id;
  return (await recentMessages(deps.client, channelId)).some(
    (message) => message.author.id === botId && message.content === content,
  );
}

/** Delivers the level-ups whose deliverer died (lease lapsed), a few guilds at a time. */
export async function deliverDueLevelUps(deps: WorkerDeps): Promise<number> {
  const due = await claimDueLevelUps(deps.db, LEVEL_UP_LEASE_MS, 100);
  const byGuild = new Map<string, PendingLevelUp[]>();
  for (const up of due) byGuild.set(up.guildId, [...(byGuild.get(up.guildId) ?? []), up]);
  for (const [guildId, ups] of byGuild) await deliverLevelUps(deps, guildId, ups);
  return due.length;
}
