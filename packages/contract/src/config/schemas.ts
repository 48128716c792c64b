/** The raw config and the guild's channels, roles and members for pickers. */
import { z } from 'zod';
import { ColorRolesMode } from '../color-roles/schemas.ts';
import { queryInt, Snowflake, Timestamp } from '../common.ts';
import { CONFIG_MAX_DEPTH, checkJsonTree, NOT_BLANK } from '../inputs.ts';

export const CONFIG_NOT_OBJECT = 'Config must be a JSON object';
const COLOR_ROLES_MODE_MESSAGE = `color_roles_mode must be ${ColorRolesMode.options.join(' or ')}`;
/** The rules of the config's one key the product reads. */
const GuildConfigRules = z
  .object(
    { color_roles_mode: z.enum(ColorRolesMode.options, { error: COLOR_ROLES_MODE_MESSAGE }).optional() },
    { error: CONFIG_NOT_OBJECT },
  )
  .catchall(z.unknown());
export type GuildConfigData = z.infer<typeof GuildConfigRules>;

/**
 * Free JSON object; `color_roles_mode` is the one key the product reads. Any key is data, so the
 * object is checked, not rebuilt: zod leaves an own `__proto__` key out of the objects it builds
 * (so that no key sets a prototype), which would drop the admin's `"__proto__"` key.
 */
export const GuildConfigData = z
  .custom<GuildConfigData>()
  .superRefine((value, ctx) => {
    const checked = GuildConfigRules.safeParse(value);
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: value });
    }
  })
  .meta({
    id: 'GuildConfigData',
    type: 'object',
    properties: { color_roles_mode: { type: 'string', enum: [...ColorRolesMode.options] } },
    additionalProperties: {},
  });

export const GuildConfig = z
  .object({ data: GuildConfigData, updated_by: z.string().nullable(), updated_at: Timestamp.nullable() })
  .meta({ id: 'GuildConfig' });
export type GuildConfig = z.infer<typeof GuildConfig>;

export const WriteReceipt = z
  .object({ updated_by: z.string().nullable(), updated_at: Timestamp.nullable() })
  .meta({ id: 'WriteReceipt' });
export type WriteReceipt = z.infer<typeof WriteReceipt>;

/**
 * The raw config body: a JSON object whose strings Postgres can store, nested at most
 * CONFIG_MAX_DEPTH deep (size is checked by the API against CONFIG_MAX_BYTES). Only writes are
 * checked, so a config stored before these rules still reads back.
 */
export const PutConfigBody = GuildConfigData.superRefine(checkJsonTree).meta({
  description: `Any JSON object. Every key and string, however deep, must be storable text (no NUL, no unpaired surrogate), and objects and arrays nest at most ${CONFIG_MAX_DEPTH} levels deep (400 otherwise).`,
});

export const Channel = z.object({
  id: Snowflake,
  name: z.string(),
  /** A voice or stage channel (listed only with `kind=any`). */
  voice: z.boolean().optional(),
});
export type Channel = z.infer<typeof Channel>;

/**
 * Which channels the picker lists: `text` (the default), where the bot posts; `any`, the text
 * channels and the voice and stage ones, for settings that name any channel (no-XP channels).
 */
export const ChannelListQuery = z.object({
  kind: z.enum(['text', 'any'], { error: 'kind must be text or any' }).default('text'),
});
export type ChannelListQuery = z.infer<typeof ChannelListQuery>;

/** A role of the guild for pickers (@everyone excluded), highest position first. */
export const GuildRole = z
  .object({
    id: Snowflake,
    name: z.string(),
    /** RGB as an integer; 0 means no color. */
    color: z.number().int().min(0),
    position: z.number().int(),
    /** Held by an integration (a bot's own role): no one can be given it. */
    managed: z.boolean(),
  })
  .meta({ id: 'GuildRole' });
export type GuildRole = z.infer<typeof GuildRole>;

/** The bot's server-wide permissions integer (decimal string); core's `missingBotPermissions` reads it. */
export const BotPermissions = z
  .object({ permissions: z.string().regex(/^\d{1,20}$/) })
  .meta({ id: 'BotPermissions' });
export type BotPermissions = z.infer<typeof BotPermissions>;

/** A member found by the member search, for pickers. */
export const MemberSummary = z
  .object({
    id: Snowflake,
    username: z.string(),
    /** Server nickname, else global display name, else username. */
    display_name: z.string(),
    /** Discord avatar hash; null for the default avatar. */
    avatar: z.string().nullable(),
  })
  .meta({ id: 'MemberSummary' });
export type MemberSummary = z.infer<typeof MemberSummary>;

export const MEMBER_SEARCH_LIMIT_DEFAULT = 10;
export const MEMBER_SEARCH_LIMIT_MAX = 100;
const MEMBER_QUERY_MESSAGE = 'query is required: the start of a name, or a member id';
export const MemberSearchQuery = z.object({
  /** The start of a username or nickname, or a member's id. */
  query: z
    .string({ error: MEMBER_QUERY_MESSAGE })
    .regex(NOT_BLANK, MEMBER_QUERY_MESSAGE)
    .trim()
    .min(1, MEMBER_QUERY_MESSAGE)
    .max(100, 'query is at most 100 characters'),
  limit: queryInt('limit', 1, MEMBER_SEARCH_LIMIT_MAX, MEMBER_SEARCH_LIMIT_DEFAULT),
});
