/** Sign-in, the session and the bot install: what they take and answer. */
import { z } from 'zod';
import { Snowflake } from '../common.ts';
import { MESSAGES } from '../errors.ts';
import { Text } from '../inputs.ts';
import { BOT_FEATURES } from '../install-state.ts';

export const SessionUser = z
  .object({
    id: Snowflake,
    username: z.string(),
    discriminator: z.string(),
    avatar: z.string().nullable(),
  })
  .meta({ id: 'SessionUser' });
export type SessionUser = z.infer<typeof SessionUser>;

export const SessionTokens = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive(),
  })
  .meta({ id: 'SessionTokens' });
export type SessionTokens = z.infer<typeof SessionTokens>;

export const Guild = z
  .object({ id: Snowflake, name: z.string(), icon: z.string().nullable(), owner: z.boolean().optional() })
  .meta({ id: 'Guild' });
export type Guild = z.infer<typeof Guild>;

export const ExchangeBody = z
  .object({
    code: Text.min(1, MESSAGES.noCodeProvided).max(512),
    code_verifier: Text.min(43, 'code_verifier must be 43-128 characters').max(
      128,
      'code_verifier must be 43-128 characters',
    ),
  })
  .meta({ id: 'ExchangeBody' });

const FEATURES_MESSAGE = `features must be a comma-separated list of: ${BOT_FEATURES.join(', ')}`;
/**
 * Features the invite asks permissions for on top of the server's (e.g. `onboarding`, before
 * its switch is on): a comma-separated list.
 */
const FEATURE_NAME = `\\s*(?:${BOT_FEATURES.join('|')})\\s*`;
const InviteFeatures = z
  .string()
  .max(200, FEATURES_MESSAGE)
  .regex(new RegExp(`^(?:${FEATURE_NAME}(?:,${FEATURE_NAME})*)?$`), FEATURES_MESSAGE)
  .optional()
  .transform((value) => (value ? value.split(',').map((name) => name.trim()) : []))
  .pipe(z.array(z.enum(BOT_FEATURES, { error: FEATURES_MESSAGE })))
  .meta({ description: FEATURES_MESSAGE, example: 'onboarding' });
export const InviteQuery = z.object({ guildId: Snowflake.optional(), features: InviteFeatures });
export const InstallQuery = z.object({ guildId: Snowflake.optional(), features: InviteFeatures });
/** Discord's redirect back to us: read, never stored, so any text goes (it still redirects). */
export const InstallCallbackQuery = z.object({
  code: z.string().optional(),
  guild_id: Snowflake.optional(),
  state: z.string().max(512).optional(),
  permissions: z.string().optional(),
  error: z.string().optional(),
});
