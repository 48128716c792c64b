import { DISCORD_OUTAGE_GIVE_UP_MS, type GuildJobPayload, type JobResult } from '@spacecadet/contract';
import { DelayedError, type Job } from 'bullmq';
import type { Logger } from '../logger.ts';
import { JobFailure } from './types.ts';

/** The first retry after Discord (or the proxy) could not be reached, doubled on each retry... */
const FIRST_RETRY_MS = 1_000;
/** ...up to this: a job notices Discord is back at most this long after it is. */
const MAX_RETRY_MS = 10_000;

/** How long a job waits before its `retries`th try while Discord cannot be reached. */
export function discordOutageRetryDelayMs(retries: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(retries - 1, 16)));
}

function discordUnreachableFailure(): JobFailure {
  return new JobFailure(
    'discord_unreachable',
    `Discord could not be reached for ${DISCORD_OUTAGE_GIVE_UP_MS / 60_000} minutes. Try again once it is back.`,
  );
}

export type DiscordOutageMark = NonNullable<GuildJobPayload['discord_outage']>;

/**
 * The job failed because Discord (or the Discord proxy) could not be reached: it is put back to
 * run again after a backoff, without spending one of its attempts, and marked as waiting for
 * Discord (`discord_outage` in its data, what the job status reports). What it did so far is
 * stored (handlers are idempotent and resume), so the next run goes on from there. After
 * DISCORD_OUTAGE_GIVE_UP_MS of this it fails for good.
 */
export async function waitForDiscord(
  job: Job<unknown, JobResult>,
  token: string | undefined,
  payload: GuildJobPayload,
  log: Logger,
): Promise<never> {
  const now = Date.now();
  const since = payload.discord_outage?.since ?? now;
  if (now - since >= DISCORD_OUTAGE_GIVE_UP_MS) {
    log.error({ waitedMs: now - since }, 'Discord could not be reached for too long: the job fails');
    throw discordUnreachableFailure();
  }
  const retries = (payload.discord_outage?.retries ?? 0) + 1;
  const progress = typeof job.progress === 'number' ? job.progress : 0;
  const mark: DiscordOutageMark = { since, retries, progress };
  await job.updateData({ ...payload, discord_outage: mark });
  const delayMs = discordOutageRetryDelayMs(retries);
  log.warn(
    { retries, delayMs, waitedMs: now - since },
    'Discord cannot be reached: the job waits and retries',
  );
  await job.moveToDelayed(now + delayMs, token);
  throw new DelayedError();
}

/**
 * Once a job that waited for Discord moves past the progress it had when Discord went away,
 * Discord answers again: the mark is removed, so its status no longer says it waits.
 */
export async function clearDiscordOutageMark(
  job: Job<unknown, JobResult>,
  payload: GuildJobPayload,
): Promise<void> {
  const { discord_outage: _cleared, ...rest } = payload;
  await job.updateData(rest);
}
