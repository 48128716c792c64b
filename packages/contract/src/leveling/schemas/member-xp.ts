import { z } from 'zod';
import { GuildParams, Snowflake, snowflake } from '../../common.ts';
import { unknownKeys } from './fields.ts';

/**
 * One member's XP as an admin sets it: the answer, the limit, the params and the body.
 */

/** One member's stored XP, level and rank after an admin set it. */
export const MemberXp = z
  .object({
    user_id: Snowflake,
    xp: z.number().int().min(0),
    level: z.number().int().min(0),
  })
  .meta({ id: 'MemberXp' });
export type MemberXp = z.infer<typeof MemberXp>;

/** XP can be set up to this (far past any level a server reaches; fits a JS integer). */
export const MEMBER_XP_MAX = 1_000_000_000_000;
export const MemberXpParams = GuildParams.extend({
  userId: snowflake('The member id in the path must be a Discord id'),
});
export const SetMemberXpBody = z
  .strictObject(
    {
      xp: z
        .number({ error: 'xp must be a whole number of at least 0' })
        .int('xp must be a whole number of at least 0')
        .min(0, 'xp must be a whole number of at least 0')
        .max(MEMBER_XP_MAX, `xp must be at most ${MEMBER_XP_MAX.toLocaleString('en-US')}`),
    },
    { error: unknownKeys('The body must be a JSON object: { "xp": n }') },
  )
  .meta({ id: 'SetMemberXpBody' });
export type SetMemberXpBody = z.infer<typeof SetMemberXpBody>;
