import { guildChannelsCacheKey, guildRolesCacheKey, guildSetupCacheKey } from '@spacecadet/contract';
import { Events } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { onGateway, type WorkerFeature } from '../feature.ts';

/**
 * Keeps the overview's setup checklist live: when an admin moves a role, changes its
 * permissions or a channel's, or the bot's own roles change, the API's Redis copies of the
 * guild's roles, channels and setup answer are dropped, so the dashboard's next poll of
 * `GET /api/guilds/{id}/setup` reads Discord again and the line turns ✓ without a reload.
 */
export async function dropSetupCopies(deps: WorkerDeps, guildId: string): Promise<number> {
  return deps.redis.del(
    guildRolesCacheKey(guildId),
    guildChannelsCacheKey(guildId),
    guildSetupCacheKey(guildId),
  );
}

const drop = (deps: WorkerDeps, guildId: string | null | undefined) =>
  guildId ? dropSetupCopies(deps, guildId).then(() => undefined) : undefined;

export const setupWatchFeature = {
  name: 'setup-watch',
  events: [
    onGateway(Events.GuildRoleCreate, 'drop setup copies: role created', (deps, role) =>
      drop(deps, role.guild.id),
    ),
    onGateway(Events.GuildRoleUpdate, 'drop setup copies: role changed', (deps, _old, role) =>
      drop(deps, role.guild.id),
    ),
    onGateway(Events.GuildRoleDelete, 'drop setup copies: role deleted', (deps, role) =>
      drop(deps, role.guild.id),
    ),
    onGateway(Events.ChannelCreate, 'drop setup copies: channel created', (deps, channel) =>
      drop(deps, channel.guildId),
    ),
    onGateway(Events.ChannelUpdate, 'drop setup copies: channel changed', (deps, _old, channel) =>
      drop(deps, 'guildId' in channel ? channel.guildId : null),
    ),
    onGateway(Events.ChannelDelete, 'drop setup copies: channel deleted', (deps, channel) =>
      drop(deps, 'guildId' in channel ? channel.guildId : null),
    ),
    onGateway(Events.GuildMemberUpdate, "drop setup copies: the bot's roles changed", (deps, _old, member) =>
      member.id === member.client.user.id ? drop(deps, member.guild.id) : undefined,
    ),
  ],
} satisfies WorkerFeature;
