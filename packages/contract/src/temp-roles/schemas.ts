/**
 * Temporary roles: a role given to a member until a moment, then taken back by the bot. Given
 * from the dashboard (`POST …/temp-roles`), by `/temprole add` in Discord, or by a role-menu
 * option with `expires_after_s`; each is one row of `temp_roles` until it ends.
 */
import { z } from 'zod';
import { Snowflake, snowflake, Timestamp } from '../common.ts';
import { SerialIdParam } from '../inputs.ts';
import { jobIdFor } from '../jobs/queue.ts';
import { unknownKeys } from '../leveling/schemas/fields.ts';

/** The shortest temporary role: a minute (the expiry sweep runs every few seconds to a minute). */
export const TEMP_ROLE_MIN_SECONDS = 60;
/** The longest: a year. */
export const TEMP_ROLE_MAX_SECONDS = 365 * 24 * 3600;

export const TEMP_ROLE_DURATION_MESSAGE = `duration_s must be a whole number of seconds from ${TEMP_ROLE_MIN_SECONDS} (a minute) to ${TEMP_ROLE_MAX_SECONDS} (a year)`;

/** A duration in whole seconds within the bounds, with one message for every way it can be wrong. */
export function tempRoleSeconds(field: string) {
  const message = TEMP_ROLE_DURATION_MESSAGE.replace('duration_s', field);
  return z
    .number({ error: message })
    .int(message)
    .min(TEMP_ROLE_MIN_SECONDS, message)
    .max(TEMP_ROLE_MAX_SECONDS, message);
}

export const TEMP_ROLE_SOURCES = ['api', 'command', 'menu'] as const;
export type TempRoleSource = (typeof TEMP_ROLE_SOURCES)[number];

export const CreateTempRoleBody = z
  .strictObject(
    {
      user_id: snowflake('user_id must be a Discord user id'),
      role_id: snowflake('role_id must be a Discord role id'),
      duration_s: tempRoleSeconds('duration_s').meta({
        description: 'How long the member keeps the role, in seconds (60 to 31536000)',
      }),
    },
    { error: unknownKeys('Expected an object with user_id, role_id and duration_s') },
  )
  .meta({ id: 'CreateTempRoleBody' });
export type CreateTempRoleBody = z.infer<typeof CreateTempRoleBody>;

export const TempRole = z
  .object({
    id: z.number().int(),
    user_id: Snowflake,
    role_id: Snowflake,
    expires_at: Timestamp,
    created_at: Timestamp,
    granted_by: Snowflake.nullable(),
    source: z.enum(TEMP_ROLE_SOURCES),
    /** pending: recorded, the worker has not given it yet; active: held until `expires_at`. */
    state: z.enum(['pending', 'active']),
  })
  .meta({ id: 'TempRole' });
export type TempRole = z.infer<typeof TempRole>;

export const TempRoleList = z.object({ temp_roles: z.array(TempRole) }).meta({ id: 'TempRoleList' });
export type TempRoleList = z.infer<typeof TempRoleList>;

export const TempRoleParams = z.object({ guildId: Snowflake, tempRoleId: SerialIdParam });

/** The 4xx sentences of the temp-role routes. */
export const TEMP_ROLE_MESSAGES = {
  notFound: 'No such temporary role in this server (it may have ended already)',
} as const;

/**
 * The id of the delayed `temp-roles.expire` run the worker queues for one temporary role, due at
 * its `expires_at` (the run expires every due role of the guild): one id per row and expiry, so
 * queueing it twice joins one run and a moved expiry gets a run of its own (the old one finds
 * nothing due). The sweep (`temp-roles.expire` scheduled per guild) catches a run Redis lost.
 */
export function tempRoleExpiryJobId(guildId: string, tempRoleId: number, expiresAt: Date): string {
  return `${jobIdFor('temp-roles.expire', guildId)}.role-${tempRoleId}-${expiresAt.getTime()}`;
}
