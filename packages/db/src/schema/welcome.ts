import {
  DEFAULT_GOODBYE_MESSAGE,
  DEFAULT_WELCOME_DM_MESSAGE,
  DEFAULT_WELCOME_MESSAGE,
  type WelcomeSendWhen,
} from '@spacecadet/contract';
import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A server's welcome settings (contract `WelcomeSettings`): the greeting, the goodbye,
 * auto-roles and sticky roles. One row per guild; no row reads as `DEFAULT_WELCOME_SETTINGS`.
 */
export const welcomeSettings = pgTable('welcome_settings', {
  guildId: text('guild_id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  channelId: text('channel_id'),
  message: text('message').notNull().default(DEFAULT_WELCOME_MESSAGE),
  sendWhen: text('send_when').$type<WelcomeSendWhen>().notNull().default('join'),
  dmEnabled: boolean('dm_enabled').notNull().default(false),
  dmMessage: text('dm_message').notNull().default(DEFAULT_WELCOME_DM_MESSAGE),
  card: boolean('card').notNull().default(false),
  goodbyeEnabled: boolean('goodbye_enabled').notNull().default(false),
  goodbyeChannelId: text('goodbye_channel_id'),
  goodbyeMessage: text('goodbye_message').notNull().default(DEFAULT_GOODBYE_MESSAGE),
  autoRoles: text('auto_roles').array().notNull().default(sql`'{}'::text[]`),
  botAutoRoles: text('bot_auto_roles').array().notNull().default(sql`'{}'::text[]`),
  autoRoleDelayS: integer('auto_role_delay_s').notNull().default(0),
  stickyRoles: boolean('sticky_roles').notNull().default(false),
  stickyExcludeRoleIds: text('sticky_exclude_role_ids').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type WelcomeSettingsRow = typeof welcomeSettings.$inferSelect;
