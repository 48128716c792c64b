/**
 * The wire shapes every feature shares: ids, timestamps, the guild path, a channel choice,
 * paging numbers, a queued job's answer and the one error body. A feature's own shapes live in
 * its folder (`<feature>/schemas.ts`), beside its routes.
 */
import { z } from 'zod';
import { MESSAGES } from './errors.ts';
import { SNOWFLAKE_PATTERN } from './ids.ts';
import { wholeNumberPattern } from './inputs.ts';

/** A Discord id (see `SNOWFLAKE_PATTERN`) with the caller's own message, e.g. for env files. */
export function snowflake(message: string) {
  return z.string({ error: message }).regex(SNOWFLAKE_PATTERN, message);
}

export const Snowflake = snowflake('Expected a Discord id (5 to 20 digits)');
/** A channel id typed by an admin: missing and malformed both read 'Channel ID required'. */
export const ChannelId = z
  .string({ error: MESSAGES.channelIdRequired })
  .regex(SNOWFLAKE_PATTERN, MESSAGES.channelIdRequired);

export const Timestamp = z.string().meta({ description: 'ISO 8601 timestamp' });

export const GuildParams = z.object({ guildId: Snowflake });

export const ChannelBody = z.object({ channel_id: ChannelId }).meta({ id: 'ChannelBody' });

/**
 * A whole number in a query string: ASCII digits only (as `SerialIdParam`), within [min, max],
 * with one message for every way it can be wrong.
 */
export function queryInt(name: string, min: 0 | 1, max: number, fallback: number) {
  return queryWholeNumber(name, min, max).default(fallback);
}

/** `queryInt` without a default (an optional cursor such as `before`). */
export function queryWholeNumber(name: string, min: 0 | 1, max: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z
    .union(
      [
        z.number({ error: message }).int(message).min(min, message).max(max, message),
        z.string().regex(wholeNumberPattern(min, max), message).transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number({ error: message }).int(message).min(min, message).max(max, message));
}

export const JobAccepted = z.object({ job_id: z.string() }).meta({ id: 'JobAccepted' });
export type JobAccepted = z.infer<typeof JobAccepted>;

const ErrorIssue = z.object({ path: z.string(), message: z.string() });

/** The one error body: `{error, message}`; 400s add the field issues. */
export const ErrorBody = z
  .object({
    error: z.string(),
    message: z.string(),
    issues: z.array(ErrorIssue).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
