import { DEFAULT_WELCOME_SETTINGS, type WelcomeSettings } from '@spacecadet/contract';
import { eq } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { type WelcomeSettingsRow, welcomeSettings } from '../schema/welcome.ts';

/** A guild's welcome settings in the contract's shape: the stored row, or the defaults without one. */
export function storedWelcomeSettings(row: WelcomeSettingsRow | undefined): WelcomeSettings {
  if (!row) {
    return {
      ...DEFAULT_WELCOME_SETTINGS,
      auto_roles: [],
      bot_auto_roles: [],
      sticky_exclude_role_ids: [],
    };
  }
  return {
    enabled: row.enabled,
    channel_id: row.channelId,
    message: row.message,
    send_when: row.sendWhen,
    dm_enabled: row.dmEnabled,
    dm_message: row.dmMessage,
    card: row.card,
    goodbye_enabled: row.goodbyeEnabled,
    goodbye_channel_id: row.goodbyeChannelId,
    goodbye_message: row.goodbyeMessage,
    auto_roles: row.autoRoles,
    bot_auto_roles: row.botAutoRoles,
    auto_role_delay_s: row.autoRoleDelayS,
    sticky_roles: row.stickyRoles,
    sticky_exclude_role_ids: row.stickyExcludeRoleIds,
  };
}

export async function getWelcomeSettings(db: Db | DbTransaction, guildId: string): Promise<WelcomeSettings> {
  const [row] = await db.select().from(welcomeSettings).where(eq(welcomeSettings.guildId, guildId));
  return storedWelcomeSettings(row);
}

/** Stores the whole settings object (an upsert): what the API's PUT and a History undo write. */
export async function saveWelcomeSettings(
  db: Db | DbTransaction,
  guildId: string,
  settings: WelcomeSettings,
): Promise<WelcomeSettings> {
  const values = {
    enabled: settings.enabled,
    channelId: settings.channel_id,
    message: settings.message,
    sendWhen: settings.send_when,
    dmEnabled: settings.dm_enabled,
    dmMessage: settings.dm_message,
    card: settings.card,
    goodbyeEnabled: settings.goodbye_enabled,
    goodbyeChannelId: settings.goodbye_channel_id,
    goodbyeMessage: settings.goodbye_message,
    autoRoles: settings.auto_roles,
    botAutoRoles: settings.bot_auto_roles,
    autoRoleDelayS: settings.auto_role_delay_s,
    stickyRoles: settings.sticky_roles,
    stickyExcludeRoleIds: settings.sticky_exclude_role_ids,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(welcomeSettings)
    .values({ guildId, ...values })
    .onConflictDoUpdate({ target: welcomeSettings.guildId, set: values })
    .returning();
  return storedWelcomeSettings(row);
}
