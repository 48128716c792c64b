import { z } from 'zod';
import { ChannelId, GuildParams, Timestamp } from '../../common.ts';
import { SNOWFLAKE_PATTERN } from '../../ids.ts';
import { inTimestampRange, SerialIdParam, TIMESTAMP_YEAR_MAX, TIMESTAMP_YEAR_MIN } from '../../inputs.ts';

/**
 * XP boosts: the stored boost, its path params, and the bodies that create a member's, a channel's
 * or a role's boost.
 */

export const Boost = z
  .object({
    id: z.number().int(),
    multiplier: z.number().min(0),
    user_id: z.string().nullable(),
    expires_at: Timestamp.nullable(),
  })
  .meta({ id: 'Boost' });
export type Boost = z.infer<typeof Boost>;

export const BoostParams = GuildParams.extend({ boostId: SerialIdParam });

const EXPIRES_AT_RANGE = `expires_at must fall between the years ${TIMESTAMP_YEAR_MIN} and ${TIMESTAMP_YEAR_MAX} (UTC)`;
/**
 * The UTC year range as a pattern, so OpenAPI shows it: a year 1970-9999, and no offset that
 * moves 1970-01-01 back into 1969 or 9999-12-31 on into 10000 (on those two days only an offset
 * of zero is taken, a little stricter than the range itself).
 */
const EXPIRES_AT_YEARS =
  /^(?!1970-01-01T[^Z]*\+(?!00:?00)|9999-12-31T[^Z]*-(?!00:?00))(19[7-9]\d|[2-9]\d{3})-/;
const ExpiresAt = z.iso
  .datetime({
    offset: true,
    error: 'expires_at must be an ISO timestamp, or null for a boost that never expires',
  })
  .regex(EXPIRES_AT_YEARS, EXPIRES_AT_RANGE)
  .refine(inTimestampRange, { message: EXPIRES_AT_RANGE })
  .meta({
    description: `In the future (a past time answers 400), within the years ${TIMESTAMP_YEAR_MIN} to ${TIMESTAMP_YEAR_MAX} (UTC); null: never expires`,
  })
  .nullable();
const MULTIPLIER = 'multiplier must be a number from 0 to 100';
const Multiplier = z.number({ error: MULTIPLIER }).min(0, MULTIPLIER).max(100, MULTIPLIER);
const BOOST_NOT_OBJECT = 'A boost must be a JSON object';
export const CreateBoostBody = z
  .object(
    {
      multiplier: Multiplier.default(2),
      user_id: z
        .string({ error: 'user_id must be a member id, or null for a server-wide boost' })
        .regex(SNOWFLAKE_PATTERN, 'user_id must be a member id, or null for a server-wide boost')
        .nullable()
        .default(null),
      expires_at: ExpiresAt.default(null),
    },
    { error: BOOST_NOT_OBJECT },
  )
  .meta({ id: 'CreateBoostBody' });
export const CreateChannelBoostBody = z
  .object(
    {
      channel_id: ChannelId,
      multiplier: Multiplier.default(2),
      expires_at: ExpiresAt.default(null),
    },
    { error: BOOST_NOT_OBJECT },
  )
  .meta({ id: 'CreateChannelBoostBody' });
export const CreateRoleBoostBody = z
  .object(
    {
      role_id: z
        .string({ error: 'A role boost needs a role id' })
        .regex(SNOWFLAKE_PATTERN, 'A role boost needs a role id'),
      multiplier: Multiplier.default(2),
      expires_at: ExpiresAt.default(null),
    },
    { error: BOOST_NOT_OBJECT },
  )
  .meta({ id: 'CreateRoleBoostBody' });
