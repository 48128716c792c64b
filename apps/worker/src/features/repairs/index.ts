import { forgetMemberPicks, type ManagedFeature } from '@spacecadet/db/queries/member-picks';
import { Events, type GatewayDispatchPayload } from 'discord.js';
import { flushMemberPicks } from '../../roles/member-picks.ts';
import { onGateway, type WorkerFeature } from '../feature.ts';
import { managedIds } from './managed-ids.ts';
import { queueRepair } from './queue.ts';

/** What a delete packet names: the guild, and the role or message ids it deleted. */
function deletedIds(
  packet: GatewayDispatchPayload,
): { guildId: string; kind: 'roles' | 'messages'; ids: readonly string[] } | null {
  switch (packet.t) {
    case 'GUILD_ROLE_DELETE':
      return { guildId: packet.d.guild_id, kind: 'roles', ids: [packet.d.role_id] };
    case 'MESSAGE_DELETE':
      return packet.d.guild_id ? { guildId: packet.d.guild_id, kind: 'messages', ids: [packet.d.id] } : null;
    case 'MESSAGE_DELETE_BULK':
      return packet.d.guild_id ? { guildId: packet.d.guild_id, kind: 'messages', ids: packet.d.ids } : null;
    default:
      return null;
  }
}

/**
 * A role or message the bot manages was deleted in Discord: the feature's repair is queued at
 * once (coalesced per guild and feature), instead of waiting for the next scheduled refresh
 * (which stays, for deletes made while no worker was listening). Raw packets: discord.js emits
 * no event for an uncached message, and the role is already gone from its cache.
 */
const repairOnDelete = onGateway(
  'raw',
  'queue the repair of a deleted role or message',
  async (deps, packet) => {
    const delayMs = deps.config.repairDelayMs;
    const deleted = delayMs === null ? null : deletedIds(packet);
    if (!deleted || delayMs === null) return;
    const managed = (await managedIds.get(deps, deleted.guildId))[deleted.kind];
    const features = new Set<ManagedFeature>();
    for (const id of deleted.ids) {
      const feature = managed.get(id);
      if (feature) features.add(feature);
    }
    for (const feature of features) {
      const jobId = await queueRepair(deps, feature, deleted.guildId, delayMs);
      deps.logger.info({ guildId: deleted.guildId, feature, jobId, event: packet.t }, 'repair queued');
    }
  },
);

/** A member who left lost their roles: their picks are not given back any more. */
const forgetLeaverPicks = onGateway(Events.GuildMemberRemove, "forget a leaver's picks", (deps, member) =>
  forgetMemberPicks(deps.db, member.guild.id, member.id),
);

/**
 * Repairs: what an admin deletes of the bot's roles and messages comes back within seconds, and
 * recreated roles go back to the members whose recorded picks they were (`member_role_picks`,
 * written behind each click by the colour and personality features).
 */
export const repairsFeature = {
  name: 'repairs',
  events: [repairOnDelete, forgetLeaverPicks],
  async shutdown(deps) {
    await flushMemberPicks(deps);
    await managedIds.close(deps);
  },
} satisfies WorkerFeature;
