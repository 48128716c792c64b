import { type JobResult, levelingOverviewPostedKey } from '@spacecadet/contract';
import {
  buildDailyOverviewMessage,
  dailyOverviewHeading,
  LEVELING_TOP_COUNT,
  previousUtcDay,
  utcDay,
} from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import {
  hasDailyActivityBefore,
  loadDailyOverview,
  loadLevelingSettings,
  wantsDailyOverview,
} from '@spacecadet/db/queries/leveling';
import { type APIMessage, type Client, channelMention } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError, postMessageOnce } from '../../discord-rest.ts';
import { channelPermissionFailure, requireGuildChannel } from '../../guild-scope.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { matchDailyOverviewSchedule } from './overview-schedule.ts';

export const OVERVIEW_CHANNEL_MISSING =
  'The daily overview channel no longer exists. Pick another one in Leveling → Settings.';
export const NO_OVERVIEW_CHANNEL = 'Pick a daily overview channel in Leveling → Settings first.';
export const NO_PREVIOUS_DAY =
  'There is no previous day to report yet: the first overview covers today and is posted at 00:00 UTC.';

/** How long the posted mark is kept: long past the next day's run. */
const POSTED_MARK_TTL_SECONDS = 3 * 24 * 3600;
/**
 * XP reaches Postgres within a second of the message (the XP buffer's flush); the run at
 * midnight waits this long past it, so the last messages of the day are counted.
 */
const AFTER_MIDNIGHT_MS = 3_000;
/** How far back in the channel a run that died while posting looks for its message. */
const RECENT_MESSAGES = 50;

/**
 * `leveling.daily-overview` (midnight UTC): posts the previous UTC day's overview in the daily
 * overview channel, once per day however often the job runs (a Redis mark per guild names the
 * last day posted). Settings changed since the scheduler was made: the scheduler is removed.
 */
export async function postScheduledOverview(context: JobContext): Promise<JobResult> {
  const { db, redis, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const settings = await loadLevelingSettings(db, guildId);
  await matchDailyOverviewSchedule(context.deps, guildId, settings);
  if (!wantsDailyOverview(settings) || !settings.dailyOverviewChannel) {
    return { ok: true, summary: 'Leveling is off or has no daily overview channel: nothing posted.' };
  }
  const channelId = settings.dailyOverviewChannel;
  await waitPastMidnight();
  const day = previousUtcDay(new Date());
  const key = levelingOverviewPostedKey(guildId);
  const mark = await redis.get(key);
  if (mark === `posted:${day}`) {
    return { ok: true, summary: `The overview of ${day} was already posted.` };
  }
  await requireGuildChannel(client, guildId, channelId, OVERVIEW_CHANNEL_MISSING);
  if (mark === `posting:${day}` && (await findPostedOverview(context.deps, channelId, day))) {
    await redis.set(key, `posted:${day}`, 'EX', POSTED_MARK_TTL_SECONDS);
    return { ok: true, summary: `The overview of ${day} was already posted.` };
  }
  await redis.set(key, `posting:${day}`, 'EX', POSTED_MARK_TTL_SECONDS);
  await context.progress(30);
  // The day's one overview: a run while this post still waits behind a rate limit gets it back.
  const nonce = messageNonce('daily-overview', guildId, channelId, day);
  const summary = await postOverview(context, channelId, day, nonce);
  await redis.set(key, `posted:${day}`, 'EX', POSTED_MARK_TTL_SECONDS);
  await context.progress(100);
  return { ok: true, summary };
}

/**
 * `leveling.resend-overview` (Resend Overview): posts the overview of the latest finished day
 * (the previous UTC day) now, whether or not it was posted already. On the guild's first day
 * (no chat recorded before today) there is no previous day: it says so and posts nothing.
 */
export async function resendOverview(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const settings = await loadLevelingSettings(db, guildId);
  await matchDailyOverviewSchedule(context.deps, guildId, settings);
  const channelId = settings.dailyOverviewChannel;
  if (!channelId) throw new JobFailure('invalid_input', NO_OVERVIEW_CHANNEL);
  await requireGuildChannel(client, guildId, channelId, OVERVIEW_CHANNEL_MISSING);
  const now = new Date();
  if (!(await hasDailyActivityBefore(db, guildId, utcDay(now)))) {
    await context.progress(100);
    return { ok: true, summary: NO_PREVIOUS_DAY };
  }
  await context.progress(30);
  const day = previousUtcDay(now);
  // Each Resend posts (the admin asked again: another request), once however often it runs.
  const nonce = messageNonce('overview-resend', guildId, channelId, day, context.payload.request_id ?? null);
  const summary = await postOverview(context, channelId, day, nonce);
  await context.progress(100);
  return { ok: true, summary };
}

async function postOverview(
  context: JobContext,
  channelId: string,
  day: string,
  nonce: string,
): Promise<string> {
  const { db, client } = context.deps;
  const overview = await loadDailyOverview(db, context.payload.guild_id, day, LEVELING_TOP_COUNT);
  try {
    await postMessageOnce(client, channelId, buildDailyOverviewMessage(overview), nonce);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.MissingAccess, DiscordCodes.MissingPermissions)) {
      throw await channelPermissionFailure(
        client,
        context.payload.guild_id,
        channelId,
        'daily_overview',
        `I can't post in ${channelMention(channelId)}: give me View Channel and Send Messages there.`,
      );
    }
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) {
      throw new JobFailure('invalid_input', OVERVIEW_CHANNEL_MISSING);
    }
    throw error;
  }
  return overview.activeMembers === 0
    ? `Posted the overview of ${day}: no activity that day.`
    : `Posted the overview of ${day}: ${overview.activeMembers} active member${overview.activeMembers === 1 ? '' : 's'}, ${overview.messages} message${overview.messages === 1 ? '' : 's'}.`;
}

/** Whether the bot's overview of `day` is among the channel's latest messages. */
async function findPostedOverview(deps: WorkerDeps, channelId: string, day: string): Promise<boolean> {
  const botId = deps.client.user?.id;
  const heading = dailyOverviewHeading(day);
  const messages = await recentMessages(deps.client, channelId);
  return messages.some((message) => message.author.id === botId && message.content.startsWith(heading));
}

/** The channel's latest messages, newest first. */
export async function recentMessages(client: Client, channelId: string): Promise<APIMessage[]> {
  return discordApi(client).channels.getMessages(channelId, { limit: RECENT_MESSAGES });
}

async function waitPastMidnight(): Promise<void> {
  const sinceMidnight = Date.now() % 86_400_000;
  if (sinceMidnight < AFTER_MIDNIGHT_MS) {
    await new Promise((resolve) => setTimeout(resolve, AFTER_MIDNIGHT_MS - sinceMidnight));
  }
}
