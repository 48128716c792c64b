import { type PutWelcomeBody, WELCOME_MESSAGES, type WelcomeSettings } from '@spacecadet/contract';
import { roleGrantRefusal } from '@spacecadet/core';
import { getWelcomeSettings, saveWelcomeSettings } from '@spacecadet/db/queries/welcome';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { settingsChangeSummary } from './settings-summary.ts';

/**
 * Welcome settings: the PUT's write (and an undo's write-back) and the History summary of a
 * change. The route's `guildRefs` and `channelUses` have already checked the body's ids are the
 * server's and the bot can post in its channels; this checks what depends on the whole merged
 * settings (a channel for what is on, the card's Attach Files) and the roles the bot must give.
 */

type Issue = { path: string; message: string };

const ROLE_LISTS = ['auto_roles', 'bot_auto_roles'] as const;
const ID_LISTS = ['auto_roles', 'bot_auto_roles', 'sticky_exclude_role_ids'] as const;

/** The body over the stored settings: fields the body leaves out stay; lists lose repeats. */
function merged(stored: WelcomeSettings, body: PutWelcomeBody): WelcomeSettings {
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(body)) if (value !== undefined) next[key] = value;
  for (const list of ID_LISTS) next[list] = [...new Set((next[list] as string[]).map((id) => id.trim()))];
  return next as WelcomeSettings;
}

function refuse(path: string, message: string): never {
  throw new ApiError('invalid_input', message, [{ path, message }]);
}

/**
 * Auto-roles the bot cannot give (managed by an integration, @everyone, not below its highest
 * role; @everyone is refused by the route's guildRefs): a 400 naming the first, every one in `issues`. Only the lists the body sets are checked,
 * so a role moved above the bot since does not block an unrelated save.
 */
async function assertRolesGivable(
  app: FastifyInstance,
  guildId: string,
  body: PutWelcomeBody,
): Promise<void> {
  const lists = ROLE_LISTS.filter((list) => (body[list]?.length ?? 0) > 0);
  if (lists.length === 0) return;
  const { roles, highest } = await app.services.guildResources.botRoleHierarchy(guildId);
  const byId = new Map(roles.map((role) => [role.id, role]));
  const issues: Issue[] = [];
  for (const list of lists) {
    (body[list] ?? []).forEach((id, index) => {
      // @everyone and other servers' roles were refused by the route's guildRefs already.
      const role = byId.get(id.trim());
      if (role && roleGrantRefusal(role, guildId, highest?.position ?? 0) !== null)
        issues.push({ path: `${list}[${index}]`, message: WELCOME_MESSAGES.roleNotGivable(role.name) });
    });
  }
  const [first] = issues;
  if (first) throw new ApiError('invalid_input', first.message, issues);
}

/**
 * Writes welcome settings (any subset) as `PUT …/welcome` does and answers the settings before
 * and after. An undo writes a whole stored state back through here (its ids checked as the
 * route's hooks check them first: `checkAsRoute`).
 */
export async function writeWelcomeSettings(
  app: FastifyInstance,
  guildId: string,
  body: PutWelcomeBody,
): Promise<{ before: WelcomeSettings; after: WelcomeSettings }> {
  const { db, guildResources } = app.services;
  const before = await getWelcomeSettings(db, guildId);
  const next = merged(before, body);
  if (next.enabled && next.channel_id === null) refuse('channel_id', WELCOME_MESSAGES.channelRequired);
  if (next.goodbye_enabled && next.goodbye_channel_id === null)
    refuse('goodbye_channel_id', WELCOME_MESSAGES.goodbyeChannelRequired);
  // The card is a file: the welcome channel must let the bot attach one, checked when the body
  // turns the card on or moves the greeting (the route's hook checked Send Messages already).
  const cardTouched = body.card !== undefined || body.channel_id !== undefined;
  if (next.card && next.channel_id !== null && cardTouched)
    await guildResources.assertBotCanUse(
      guildId,
      { channel_id: next.channel_id },
      { channel_id: 'welcome_cards' },
    );
  await assertRolesGivable(app, guildId, body);
  const after = await saveWelcomeSettings(db, guildId, next);
  return { before, after };
}

/** How the History page names each setting. */
const LABELS: Record<keyof WelcomeSettings, string> = {
  enabled: 'welcome',
  channel_id: 'welcome channel',
  message: 'welcome message',
  send_when: 'send when',
  dm_enabled: 'welcome DM',
  dm_message: 'DM message',
  card: 'welcome card',
  goodbye_enabled: 'goodbye',
  goodbye_channel_id: 'goodbye channel',
  goodbye_message: 'goodbye message',
  auto_roles: 'auto-roles',
  bot_auto_roles: 'bot auto-roles',
  auto_role_delay_s: 'auto-role delay',
  sticky_roles: 'sticky roles',
  sticky_exclude_role_ids: 'sticky-role exclusions',
};

const TEXTS = new Set<keyof WelcomeSettings>(['message', 'dm_message', 'goodbye_message']);

function shown(field: keyof WelcomeSettings, value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return String(value.length);
  if (field === 'channel_id' || field === 'goodbye_channel_id') return `<#${value}>`;
  if (field === 'auto_role_delay_s') return `${value} s`;
  return String(value);
}

/** "Edited the welcome settings: welcome off → on, welcome message edited" (the label alone if nothing changed). */
export function welcomeSummary(label: string, before: WelcomeSettings, after: WelcomeSettings): string {
  return settingsChangeSummary(label, before, after, { labels: LABELS, edited: TEXTS, value: shown });
}
