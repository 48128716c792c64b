import type { LevelUpDestination, RewardMode } from '@spacecadet/contract';
import { renderLevelUpMessage, rewardRolesOfLevelUp } from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import { loadLevelingRoles, type StoredLevelingRole } from '@spacecadet/db/queries/leveling';
import {
  claimDueLevelUps,
  finishLevelUp,
  markLevelUpAnnouncing,
  type PendingLevelUp,
} from '@spacecadet/db/queries/member-xp';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError, postMessageOnce } from '../../discord-rest.ts';
import { channelScope } from '../../guild-scope.ts';
import { errorFields } from '../../logger.ts';
import { recentMessages } from './overview.ts';
import { grantLevelRewards, rewardPlan } from './rewards.ts';
import { levelingSetups } from './setup.ts';

/**
 * How long the process delivering a level-up holds it: past this, another process delivers it
 * (its deliverer died). Far longer than a delivery takes, even behind a Discord rate limit.
 */
export const LEVEL_UP_LEASE_MS = 10_000;

type LevelUpMessage = ReturnType<typeof renderLevelUpMessage>;

/**
 * The `{rewards}` of a level-up: the created reward roles it gives under the reward mode, for
 * every level crossed (one flush can cross several: `stack` names each reward crossed,
 * `highest` the highest one reached if it was crossed now), as `grantLevelRewards` gives them.
 * Taken from the reward configuration rather than from what this delivery happened to add, so
 * a delivery retried after its roles were given names them again and renders the very same
 * message (which is how a retry finds it already posted). A level-up recorded before the level
 * before it was kept counts as one level.
 */
export function levelUpRewardNames(
  roles: readonly StoredLevelingRole[],
  guildId: string,
  mode: RewardMode,
  up: Pick<PendingLevelUp, 'previousLevel' | 'level'>,
): string[] {
  const created = rewardPlan(roles, guildId, mode).roles;
  return rewardRolesOfLevelUp(created, up.previousLevel ?? up.level - 1, up.level, mode).map(
    (role) => role.roleName,
  );
}

/**
 * Celebrates recorded level-ups (see `pendingLevelUps`): posts the admin's level-up message
 * (core `renderLevelUpMessage`) where `level_up_destination` says — nowhere (`off`), the
 * channel of the message that crossed the level (`current`), the member's DMs (`dm`), or the
 * announcement channel (`channel`) — only in a channel that is really the guild's, grants the
 * reward roles of the new level, then deletes the record. Each is delivered once, by the
 * batch's writer or, if it died or was held back halfway, by whichever process claims it after
 * its lease: a level-up marked `announcing` whose message is already at its destination is not
 * posted again, one still waiting behind a rate limit is made once by Discord (`levelUpNonce`),
 * and rewards are only added where missing. A message Discord refuses (DMs closed,
 * 50007; no access to the channel) is logged and skipped: the level-up still completes.
 */
export async function deliverLevelUps(
  deps: WorkerDeps,
  guildId: string,
  levelUps: readonly PendingLevelUp[],
): Promise<void> {
  const { settings } = await levelingSetups.get(deps, guildId);
  const destination = settings.levelUpDestination;
  const roles = destination === 'off' ? [] : await loadLevelingRoles(deps.db, guildId);
  const server = deps.client.guilds.cache.get(guildId)?.name ?? '';
  const scopes = new Map<string, boolean>();
  const isOwn = async (channelId: string): Promise<boolean> => {
    let own = scopes.get(channelId);
    if (own === undefined) {
      own = (await channelScope(deps.client, guildId, channelId)) === 'own';
      scopes.set(channelId, own);
    }
    return own;
  };
  for (const up of levelUps) {
    try {
      if (destination !== 'off') {
        const message = renderLevelUpMessage(settings.levelUpMessage, {
          userId: up.userId,
          username: up.username ?? deps.client.users.cache.get(up.userId)?.username ?? '',
          level: up.level,
          server,
          rewards: levelUpRewardNames(roles, guildId, settings.rewardMode, up),
        });
        const target = await targetChannel(deps, destination, settings.announcementChannel, up, isOwn);
        if (target && !(await announced(deps, target, up, message))) {
          if (!(await markLevelUpAnnouncing(deps.db, up))) continue;
          await post(deps, target, up, message);
        }
      }
      await grantLevelRewards(deps, guildId, up.userId, up.level);
      await finishLevelUp(deps.db, up);
    } catch (error) {
      // Kept: delivered again once its lease lapses.
      deps.logger.warn({ ...errorFields(error), guildId, userId: up.userId }, 'level-up handling failed');
    }
  }
}

/** The channel the level-up message goes to, or null when it goes nowhere. */
async function targetChannel(
  deps: WorkerDeps,
  destination: Exclude<LevelUpDestination, 'off'>,
  announcementChannel: string | null,
  up: PendingLevelUp,
  isOwn: (channelId: string) => Promise<boolean>,
): Promise<string | null> {
  if (destination === 'dm') return openDm(deps, up);
  const channelId = destination === 'current' ? up.channelId : announcementChannel;
  return channelId !== null && (await isOwn(channelId)) ? channelId : null;
}

/** The member's DM channel with the bot (Discord answers the same one every time). */
async function openDm(deps: WorkerDeps, up: PendingLevelUp): Promise<string | null> {
  try {
    return (await discordApi(deps.client).users.createDM(up.userId)).id;
  } catch (error) {
    if (!isDiscordError(error, DiscordCodes.InvalidRecipients)) throw error;
    deps.logger.info({ guildId: up.guildId, userId: up.userId }, 'level-up DM not sent: no such user');
    return null;
  }
}

/**
 * The nonce of a level-up's announcement: the level-up itself (guild, member, level, when it was
 * recorded: the same level reached again after a reset is another), so every delivery of it,
 * however many run, makes one message (the check in `announced` cannot see a post still waiting
 * behind a rate limit; Discord's nonce check can).
 */
export function levelUpNonce(
  up: Pick<PendingLevelUp, 'guildId' | 'userId' | 'level' | 'recordedAt'>,
): string {
  return messageNonce('level-up', up.guildId, up.userId, up.level, up.recordedAt.toISOString());
}

async function post(deps: WorkerDeps, channelId: string, up: PendingLevelUp, message: LevelUpMessage) {
  try {
    await postMessageOnce(deps.client, channelId, message, levelUpNonce(up));
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.CannotSendMessagesToThisUser)) {
      deps.logger.info(
        { guildId: up.guildId, userId: up.userId, level: up.level },
        'level-up DM not sent: the member does not accept DMs from the bot (50007)',
      );
      return;
    }
    if (
      isDiscordError(
        error,
        DiscordCodes.MissingAccess,
        DiscordCodes.MissingPermissions,
        DiscordCodes.UnknownChannel,
      )
    ) {
      deps.logger.warn(
        { guildId: up.guildId, userId: up.userId, channelId },
        'level-up message not posted: the bot cannot post in that channel',
      );
      return;
    }
    throw error;
  }
}

/** Whether an earlier delivery that died already posted this level-up's message there. */
async function announced(
  deps: WorkerDeps,
  channelId: string,
  up: PendingLevelUp,
  message: LevelUpMessage,
): Promise<boolean> {
  if (!up.announcing) return false;
  const botId = deps.client.user?.id;
  return (await recentMessages(deps.client, channelId)).some(
    (posted) => posted.author.id === botId && posted.content === message.content,
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
