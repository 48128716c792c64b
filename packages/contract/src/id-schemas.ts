import { z } from 'zod';
import { MESSAGES } from './errors.ts';
import { SNOWFLAKE_PATTERN } from './ids.ts';

/** A Discord id (see `SNOWFLAKE_PATTERN`) with the caller's own message, e.g. for env files. */
export function snowflake(message: string) {
  return z.string().regex(SNOWFLAKE_PATTERN, message);
}

export const Snowflake = snowflake('Expected a Discord id (5 to 20 digits)');
/** A channel id typed by an admin: missing and malformed both read 'Channel ID required'. */
export const ChannelId = z
  .string({ error: MESSAGES.channelIdRequired })
  .regex(SNOWFLAKE_PATTERN, MESSAGES.channelIdRequired);
