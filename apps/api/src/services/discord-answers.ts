import type {
  APIApplication,
  APIApplicationCommand,
  APIEmoji,
  APIGuild,
  APIGuildChannel,
  APIGuildMember,
  APIOverwrite,
  APIRole,
  APISortableChannel,
  APIUser,
  RESTAPIPartialCurrentUserGuild,
  RESTGetAPIGatewayBotResult,
  RESTPostOAuth2AccessTokenResult,
  RESTPostOAuth2ClientCredentialsResult,
} from 'discord-api-types/v10';
import { z } from 'zod';

/**
 * The answers of the Discord calls the API makes (services/discord.ts): the parts of
 * discord-api-types' objects the API reads (the worker's vocabulary: @discordjs/core answers
 * with the whole objects), each with a zod schema checked to produce that type, so a surprise
 * from Discord (or the sandbox) is an error where it is parsed, not a crash further on.
 */

/** Fields Discord may leave out (or send as null) in the answers the API reads. */
type Loose<T, K extends keyof T> = { [P in K]?: T[P] | null | undefined };

export type DiscordTokenResponse = Pick<
  RESTPostOAuth2AccessTokenResult,
  'access_token' | 'token_type' | 'expires_in' | 'refresh_token'
> & { scope?: RESTPostOAuth2AccessTokenResult['scope'] | undefined };
export const DiscordTokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
  refresh_token: z.string().min(1),
  scope: z.string().optional(),
}) satisfies z.ZodType<DiscordTokenResponse>;

export type DiscordUser = Pick<APIUser, 'id' | 'username' | 'discriminator' | 'avatar'>;
export const DiscordUser = z.object({
  id: z.string(),
  username: z.string(),
  discriminator: z.string().default('0'),
  avatar: z.string().nullable().default(null),
}) satisfies z.ZodType<DiscordUser>;

export type DiscordPartialGuild = Pick<
  RESTAPIPartialCurrentUserGuild,
  'id' | 'name' | 'icon' | 'owner' | 'permissions'
>;
export const DiscordPartialGuild = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable().default(null),
  owner: z.boolean().default(false),
  permissions: z.string().default('0'),
}) satisfies z.ZodType<DiscordPartialGuild>;

export type DiscordChannel = Pick<APIGuildChannel, 'id' | 'type'> &
  Loose<APIGuildChannel, 'name' | 'guild_id'> &
  Loose<APISortableChannel, 'position'> & { permission_overwrites: APIOverwrite[] };
export const DiscordChannel = z.object({
  id: z.string(),
  type: z.number().int(),
  name: z.string().nullable().optional(),
  position: z.number().int().optional(),
  guild_id: z.string().optional(),
  permission_overwrites: z
    .array(z.object({ id: z.string(), type: z.number().int(), allow: z.string(), deny: z.string() }))
    .default([]),
}) satisfies z.ZodType<DiscordChannel>;

/** `owner_id`: who owns the server now (the owner-only data deletion asks it). */
export type DiscordGuild = Pick<APIGuild, 'id' | 'name' | 'icon'> & { owner_id?: string | undefined };
export const DiscordGuild = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable().default(null),
  owner_id: z.string().optional(),
}) satisfies z.ZodType<DiscordGuild>;

export type DiscordRole = Pick<APIRole, 'id' | 'name' | 'color' | 'position' | 'managed' | 'permissions'>;
export const DiscordRole = z.object({
  id: z.string(),
  name: z.string(),
  color: z.number().int().min(0).default(0),
  position: z.number().int().default(0),
  managed: z.boolean().default(false),
  /** The role's permissions integer, a decimal string. */
  permissions: z.string().regex(/^\d+$/).default('0'),
}) satisfies z.ZodType<DiscordRole>;

/** A guild's custom emoji: `GET /guilds/{id}/emojis` lists only those, so each has an id. */
export type DiscordEmoji = { id: NonNullable<APIEmoji['id']> } & Loose<APIEmoji, 'name' | 'animated'>;
export const DiscordEmoji = z.object({
  id: z.string(),
  name: z.string().nullable().optional(),
  animated: z.boolean().optional(),
}) satisfies z.ZodType<DiscordEmoji>;

export type DiscordMember = Pick<APIGuildMember, 'roles'> &
  Loose<APIGuildMember, 'nick'> & {
    user: Pick<APIUser, 'id' | 'username' | 'avatar'> & Loose<APIUser, 'global_name' | 'bot'>;
  };
export const DiscordMember = z.object({
  user: z.object({
    id: z.string(),
    username: z.string(),
    global_name: z.string().nullable().optional(),
    bot: z.boolean().optional(),
    avatar: z.string().nullable().default(null),
  }),
  nick: z.string().nullable().optional(),
  roles: z.array(z.string()).default([]),
}) satisfies z.ZodType<DiscordMember>;

/** The bot's application (`GET /applications/@me`): what the doctor checks of it. */
export type DiscordApplication = Pick<APIApplication, 'id' | 'flags'> &
  Loose<APIApplication, 'redirect_uris'>;
export const DiscordApplication = z.object({
  id: z.string(),
  flags: z.number().int(),
  redirect_uris: z.array(z.string()).nullish(),
}) satisfies z.ZodType<DiscordApplication>;

/** `GET /gateway/bot`: the session starts left today. */
export type DiscordGatewayBot = Pick<RESTGetAPIGatewayBotResult, 'session_start_limit'>;
export const DiscordGatewayBot = z.object({
  session_start_limit: z.object({
    total: z.number().int(),
    remaining: z.number().int(),
    reset_after: z.number(),
    max_concurrency: z.number().int(),
  }),
}) satisfies z.ZodType<DiscordGatewayBot>;

/** A registered application command: the doctor reads only its name. */
export type DiscordCommand = Pick<APIApplicationCommand, 'name'>;
export const DiscordCommand = z.object({ name: z.string() }) satisfies z.ZodType<DiscordCommand>;

/** The client-credentials grant's token: no refresh token. */
export type DiscordClientCredentials = Pick<
  RESTPostOAuth2ClientCredentialsResult,
  'access_token' | 'token_type' | 'expires_in'
>;
export const DiscordClientCredentials = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
}) satisfies z.ZodType<DiscordClientCredentials>;

/** A server's Onboarding prompts, the parts an import reads (their options' roles and channels). */
export const DiscordOnboardingOption = z.object({
  id: z.string(),
  title: z.string(),
  emoji: z
    .object({ id: z.string().nullish(), name: z.string().nullish(), animated: z.boolean().nullish() })
    .nullish(),
  role_ids: z.array(z.string()).default([]),
  channel_ids: z.array(z.string()).default([]),
});
export const DiscordOnboarding = z.object({
  enabled: z.boolean().optional(),
  prompts: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      single_select: z.boolean().default(false),
      options: z.array(DiscordOnboardingOption).default([]),
    }),
  ),
});
export type DiscordOnboarding = z.output<typeof DiscordOnboarding>;
