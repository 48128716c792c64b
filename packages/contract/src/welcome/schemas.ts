/**
 * Welcome and goodbye: a member's way in and out of a server. The greeting (in a channel and by
 * DM, optionally with a welcome card), the goodbye, auto-roles for people and bots, and sticky
 * roles given back to a member who rejoins. One row of settings per server.
 */
import { z } from 'zod';
import { ChannelId, snowflake } from '../common.ts';
import { storableText } from '../inputs.ts';
import { unknownKeys } from '../leveling/schemas/fields.ts';

/** When the greeting is sent: at the join, or once the member finished Onboarding and Screening. */
export const WELCOME_SEND_WHEN = ['join', 'onboarding_complete'] as const;
export const WelcomeSendWhen = z.enum(WELCOME_SEND_WHEN, {
  error: 'send_when must be join or onboarding_complete',
});
export type WelcomeSendWhen = z.infer<typeof WelcomeSendWhen>;

/** Discord's longest message content: every template is at most this long. */
export const WELCOME_MESSAGE_MAX = 2000;
/** The placeholders a welcome (channel or DM) template may hold; core `renderWelcomeMessage` fills them. */
export const WELCOME_PLACEHOLDERS = [
  '{user}',
  '{username}',
  '{server}',
  '{member_count}',
  '{answers}',
] as const;
/** The goodbye's placeholders: the member has left, so no answers. */
export const GOODBYE_PLACEHOLDERS = ['{user}', '{username}', '{server}', '{member_count}'] as const;

export const DEFAULT_WELCOME_MESSAGE = 'Welcome to **{server}**, {user}! You are member #{member_count}.';
export const DEFAULT_WELCOME_DM_MESSAGE = 'Welcome to **{server}**, {username}! Glad you are here.';
export const DEFAULT_GOODBYE_MESSAGE = '**{username}** has left {server}. We are {member_count} now.';

/** The most auto-roles for people, and for bots (each), and roles kept out of sticky roles. */
export const WELCOME_AUTO_ROLES_MAX = 10;
export const STICKY_EXCLUDE_MAX = 50;
/** The longest wait before auto-roles are given: one day. */
export const AUTO_ROLE_DELAY_MAX_S = 86_400;

/**
 * Raids: more than `WELCOME_RAID_JOINS` joins within `WELCOME_RAID_WINDOW_S` seconds merge the
 * burst's greetings into one message per `WELCOME_RAID_BATCH_S` seconds naming at most
 * `WELCOME_RAID_BATCH_MAX` members (Discord lets a bot send about 5 messages per 5 s in a channel).
 */
export const WELCOME_RAID_JOINS = 10;
export const WELCOME_RAID_WINDOW_S = 10;
export const WELCOME_RAID_BATCH_S = 5;
export const WELCOME_RAID_BATCH_MAX = 20;

export const WelcomeSettings = z
  .object({
    enabled: z.boolean(),
    channel_id: z.string().nullable(),
    message: z.string().max(WELCOME_MESSAGE_MAX),
    send_when: WelcomeSendWhen,
    dm_enabled: z.boolean(),
    dm_message: z.string().max(WELCOME_MESSAGE_MAX),
    /** Attach a PNG welcome card (avatar, name, member number) to the channel greeting. */
    card: z.boolean(),
    goodbye_enabled: z.boolean(),
    goodbye_channel_id: z.string().nullable(),
    goodbye_message: z.string().max(WELCOME_MESSAGE_MAX),
    /** Given to every person who joins (after the delay, and after Membership Screening). */
    auto_roles: z.array(z.string()),
    /** Given to every bot that joins. */
    bot_auto_roles: z.array(z.string()),
    auto_role_delay_s: z.number().int().min(0).max(AUTO_ROLE_DELAY_MAX_S),
    /** Give back the roles a member held when they left, when they rejoin. */
    sticky_roles: z.boolean(),
    sticky_exclude_role_ids: z.array(z.string()),
  })
  .meta({ id: 'WelcomeSettings' });
export type WelcomeSettings = z.infer<typeof WelcomeSettings>;

/** What a server that never saved its welcome settings has: everything off, the default texts. */
export const DEFAULT_WELCOME_SETTINGS: WelcomeSettings = {
  enabled: false,
  channel_id: null,
  message: DEFAULT_WELCOME_MESSAGE,
  send_when: 'join',
  dm_enabled: false,
  dm_message: DEFAULT_WELCOME_DM_MESSAGE,
  card: false,
  goodbye_enabled: false,
  goodbye_channel_id: null,
  goodbye_message: DEFAULT_GOODBYE_MESSAGE,
  auto_roles: [],
  bot_auto_roles: [],
  auto_role_delay_s: 0,
  sticky_roles: false,
  sticky_exclude_role_ids: [],
};

const template = (field: string) =>
  storableText({ error: `${field} must be text` })
    .max(WELCOME_MESSAGE_MAX, `${field} is at most ${WELCOME_MESSAGE_MAX} characters`)
    .optional();

const roleList = (field: string, max: number) =>
  z
    .array(snowflake(`${field} must hold role ids`), { error: `${field} must be a list of role ids` })
    .max(max, `At most ${max} roles in ${field}`)
    .optional();

const WELCOME_NOT_OBJECT = 'The welcome settings must be a JSON object of the fields to change';

/** The fields to change; the rest stay as stored. Ids are checked against the server by the API. */
export const PutWelcomeBody = z
  .strictObject(
    {
      enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
      channel_id: ChannelId.nullable().optional(),
      message: template('message').meta({
        description: `Placeholders: ${WELCOME_PLACEHOLDERS.join(', ')} ({answers} only with onboarding_complete)`,
      }),
      send_when: WelcomeSendWhen.optional(),
      dm_enabled: z.boolean({ error: 'dm_enabled must be true or false' }).optional(),
      dm_message: template('dm_message'),
      card: z.boolean({ error: 'card must be true or false' }).optional(),
      goodbye_enabled: z.boolean({ error: 'goodbye_enabled must be true or false' }).optional(),
      goodbye_channel_id: ChannelId.nullable().optional(),
      goodbye_message: template('goodbye_message').meta({
        description: `Placeholders: ${GOODBYE_PLACEHOLDERS.join(', ')}`,
      }),
      auto_roles: roleList('auto_roles', WELCOME_AUTO_ROLES_MAX),
      bot_auto_roles: roleList('bot_auto_roles', WELCOME_AUTO_ROLES_MAX),
      auto_role_delay_s: z
        .number({ error: 'auto_role_delay_s must be a number of seconds' })
        .int('auto_role_delay_s must be a whole number of seconds')
        .min(0, 'auto_role_delay_s must be at least 0')
        .max(AUTO_ROLE_DELAY_MAX_S, `auto_role_delay_s is at most ${AUTO_ROLE_DELAY_MAX_S} (one day)`)
        .optional(),
      sticky_roles: z.boolean({ error: 'sticky_roles must be true or false' }).optional(),
      sticky_exclude_role_ids: roleList('sticky_exclude_role_ids', STICKY_EXCLUDE_MAX),
    },
    { error: unknownKeys(WELCOME_NOT_OBJECT) },
  )
  .meta({ id: 'PutWelcomeBody' });
export type PutWelcomeBody = z.infer<typeof PutWelcomeBody>;

/** The API's refusals, worded once for the API and the dashboard. */
export const WELCOME_MESSAGES = {
  channelRequired: 'Pick a channel for the welcome message before turning it on',
  goodbyeChannelRequired: 'Pick a channel for the goodbye message before turning it on',
  /** `{role}`: the role's name. */
  roleNotGivable: (role: string) =>
    `The bot cannot give @${role}: move the bot's role above it, or pick another role`,
} as const;
