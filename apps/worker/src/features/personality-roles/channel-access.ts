import type { StoredPersonalityQuestion } from '@spacecadet/db/queries/personality-roles';
import { type APIChannel, OverwriteType, PermissionFlagsBits } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import { isKnownRoleViewAllowed } from '../../guild-channels.ts';
import type { JobContext } from '../../jobs/types.ts';
import type { GuildRolesView } from '../../roles/guild-roles.ts';

/**
 * Channels an answer opens: each option's role gets an overwrite allowing View Channel on each of
 * the option's channels (other bits of an overwrite already there are kept), and a removed
 * channel's allow is taken back (`closeChannelForRole`, the cleanup's `overwrite` kind). Only
 * channels Discord says are the guild's are touched: a stored id is never trusted.
 */

const VIEW = PermissionFlagsBits.ViewChannel;
const REASON = 'Space Cadet: personality role channel access';

type GuildChannelLike = APIChannel & {
  guild_id?: string;
  permission_overwrites?: Array<{ id: string; type: number; allow: string; deny: string }>;
};

/** The channel when it is the guild's; null when gone or another guild's (or hidden from the bot). */
async function guildChannel(context: JobContext, channelId: string): Promise<GuildChannelLike | null> {
  try {
    const channel = (await discordApi(context.deps.client).channels.get(channelId)) as GuildChannelLike;
    return channel.guild_id === context.payload.guild_id ? channel : null;
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel, DiscordCodes.MissingAccess)) return null;
    throw error;
  }
}

export interface AccessOutcome {
  opened: number;
  warnings: string[];
}

/**
 * Makes each enabled question's options' roles (live ones, `liveRoleIds`) see the option's
 * channels. What the gateway already shows allowed costs nothing, so an up-to-date run makes no
 * request; anything else is read from Discord before it is written.
 */
export async function ensureChannelAccess(
  context: JobContext,
  questions: readonly StoredPersonalityQuestion[],
  isLiveRole: (roleId: string) => boolean,
): Promise<AccessOutcome> {
  const { client } = context.deps;
  const guildId = context.payload.guild_id;
  const outcome: AccessOutcome = { opened: 0, warnings: [] };
  for (const question of questions) {
    if (!question.isEnabled) continue;
    for (const option of question.options) {
      const roleId = option.roleId;
      if (option.channelIds.length === 0 || !roleId || roleId === guildId || !isLiveRole(roleId)) continue;
      for (const channelId of option.channelIds) {
        if (isKnownRoleViewAllowed(client, guildId, channelId, roleId)) continue;
        const result = await openChannel(context, channelId, roleId);
        if (result === 'opened') outcome.opened += 1;
        else if (result === 'forbidden')
          outcome.warnings.push(
            `I can't open <#${channelId}> to the role of "${option.label}": I need the Manage Roles permission in that channel.`,
          );
        else if (result === 'missing')
          outcome.warnings.push(
            `The channel of "${option.label}" (${channelId}) is not in this server any more: pick its channels again.`,
          );
      }
    }
  }
  return outcome;
}

async function openChannel(
  context: JobContext,
  channelId: string,
  roleId: string,
): Promise<'opened' | 'present' | 'missing' | 'forbidden'> {
  const channel = await guildChannel(context, channelId);
  if (!channel) return 'missing';
  const existing = channel.permission_overwrites?.find(
    (o) => o.id === roleId && o.type === OverwriteType.Role,
  );
  const allow = existing ? BigInt(existing.allow) : 0n;
  const deny = existing ? BigInt(existing.deny) : 0n;
  if ((allow & VIEW) !== 0n) return 'present';
  try {
    await discordApi(context.deps.client).channels.editPermissionOverwrite(
      channelId,
      roleId,
      { type: OverwriteType.Role, allow: String(allow | VIEW), deny: String(deny & ~VIEW) },
      { reason: REASON },
    );
    return 'opened';
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess))
      return 'forbidden';
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) return 'missing';
    throw error;
  }
}

/**
 * Takes back the View Channel allow the bot gave the role (`<channel id>:<role id>`): the
 * overwrite goes when nothing else is left in it. Gone already (channel, role or overwrite)
 * counts as done. Returns a warning when Discord refuses.
 */
export async function closeChannelForRole(
  context: JobContext,
  target: string,
  name: string,
): Promise<string | null> {
  const [channelId, roleId] = target.split(':');
  if (!channelId || !roleId) return null;
  const channel = await guildChannel(context, channelId);
  const existing = channel?.permission_overwrites?.find(
    (o) => o.id === roleId && o.type === OverwriteType.Role,
  );
  if (!existing) return null;
  const allow = BigInt(existing.allow);
  const deny = BigInt(existing.deny);
  if ((allow & VIEW) === 0n) return null;
  const api = discordApi(context.deps.client);
  try {
    const rest = allow & ~VIEW;
    if (rest === 0n && deny === 0n)
      await api.channels.deletePermissionOverwrite(channelId, roleId, { reason: REASON });
    else
      await api.channels.editPermissionOverwrite(
        channelId,
        roleId,
        { type: OverwriteType.Role, allow: String(rest), deny: String(deny) },
        { reason: REASON },
      );
    return null;
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel, DiscordCodes.UnknownPermissionOverwrite))
      return null;
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess))
      return `Could not close <#${channelId}> to the role of "${name}": I need the Manage Roles permission in that channel. Remove its View Channel permission by hand.`;
    throw error;
  }
}

/**
 * Whether a stored role exists: in `view` (read before roles were made), or made since (a role
 * id the options did not have before).
 */
export function liveRoleCheck(
  view: GuildRolesView,
  before: readonly StoredPersonalityQuestion[],
  after: readonly StoredPersonalityQuestion[],
): (roleId: string) => boolean {
  // A run that made no role (every steady-state one) has the same questions after as before.
  if (before === after) return (roleId) => view.has(roleId);
  const old = new Set(before.flatMap((q) => q.options.flatMap((o) => o.roleId ?? [])));
  const made = new Set(
    after.flatMap((q) => q.options.flatMap((o) => (o.roleId && !old.has(o.roleId) ? [o.roleId] : []))),
  );
  return (roleId) => view.has(roleId) || made.has(roleId);
}
