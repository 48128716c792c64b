import { autoRolesJobIdFor, type GuildJobPayload, JOB_RETENTION } from '@spacecadet/contract';
import { saveStickyRoles } from '@spacecadet/db/queries/sticky-roles';
import { getWelcomeSettings } from '@spacecadet/db/queries/welcome';
import { GatewayDispatchEvents, type GatewayDispatchPayload } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { memberOrder } from '../../member-order.ts';
import { guildRolesView } from '../../roles/guild-roles.ts';
import { onGateway } from '../feature.ts';
import { awaitingKey, lastRolesKey } from './keys.ts';
import { retentionMs } from './retention.ts';

/** A join's roles job retries a Discord hiccup, then fails for the log. */
const GIVE_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: JOB_RETENTION.completed,
  removeOnFail: JOB_RETENTION.failed,
} as const;

/**
 * Queues the member's roles for this join, `auto_role_delay_s` after they joined (what is left
 * of it): one job per join (its id names the join), so every event of the join queues it once.
 */
export async function queueGive(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  joinedAt: string,
  delayS: number,
  bot: boolean,
): Promise<void> {
  const due = Date.parse(joinedAt) + delayS * 1000;
  const payload: GuildJobPayload = {
    guild_id: guildId,
    requested_by: null,
    member: { user_id: userId, joined_at: joinedAt, bot },
  };
  await deps.queue.forGuild(guildId).add('auto-roles.give', payload, {
    ...GIVE_JOB_OPTIONS,
    jobId: autoRolesJobIdFor(guildId, userId, joinedAt),
    delay: Math.max(0, (Number.isNaN(due) ? 0 : due) - Date.now()),
  });
}

interface MemberPacket {
  guild_id: string;
  user: { id: string; bot?: boolean };
  roles?: string[];
  joined_at?: string | null;
  pending?: boolean;
}

/** A join: queue its roles, or wait for the member to pass screening first. */
async function onJoin(deps: WorkerDeps, member: MemberPacket): Promise<void> {
  const settings = await getWelcomeSettings(deps.db, member.guild_id);
  const bot = member.user.bot === true;
  const roles = bot ? settings.bot_auto_roles : settings.auto_roles;
  const sticky = settings.sticky_roles && !bot;
  if (sticky && member.roles) await rememberRoles(deps, member.guild_id, member.user.id, member.roles);
  if ((roles.length === 0 && !sticky) || !member.joined_at) return;
  if (member.pending) {
    // Discord refuses roles to a pending member: their completion (GUILD_MEMBER_UPDATE) queues them.
    await deps.redis.set(
      awaitingKey(member.guild_id, member.user.id),
      member.joined_at,
      'PX',
      retentionMs(deps),
    );
    return;
  }
  await queueGive(deps, member.guild_id, member.user.id, member.joined_at, settings.auto_role_delay_s, bot);
}

/** A member changed: remember their roles (sticky servers); a pending joiner who completed gets theirs. */
async function onUpdate(deps: WorkerDeps, member: MemberPacket): Promise<void> {
  const settings = await getWelcomeSettings(deps.db, member.guild_id);
  if (settings.sticky_roles && member.roles && !member.pending) {
    await rememberRoles(deps, member.guild_id, member.user.id, member.roles);
  }
  if (member.pending !== false) return;
  const joinedAt = await deps.redis.getdel(awaitingKey(member.guild_id, member.user.id));
  if (joinedAt === null) return;
  await queueGive(
    deps,
    member.guild_id,
    member.user.id,
    joinedAt,
    settings.auto_role_delay_s,
    member.user.bot === true,
  );
}

async function rememberRoles(deps: WorkerDeps, guildId: string, userId: string, roles: readonly string[]) {
  const key = lastRolesKey(guildId);
  if (roles.length === 0) await deps.redis.hdel(key, userId);
  else await deps.redis.hset(key, userId, roles.join(','));
}

/**
 * A leave: in a sticky-roles server, store the roles they held (their last GUILD_MEMBER_UPDATE,
 * as the remove carries none) but @everyone, managed roles, roles at or above the bot's and the
 * excluded ones.
 */
async function onLeave(deps: WorkerDeps, guildId: string, userId: string): Promise<void> {
  await deps.redis.del(awaitingKey(guildId, userId));
  const key = lastRolesKey(guildId);
  const held = await deps.redis.hget(key, userId);
  await deps.redis.hdel(key, userId);
  if (!held) return;
  const settings = await getWelcomeSettings(deps.db, guildId);
  if (!settings.sticky_roles) return;
  const view = await guildRolesView(deps.client, guildId);
  const excluded = new Set(settings.sticky_exclude_role_ids);
  const kept = held.split(',').filter((roleId) => {
    const role = view.role(roleId);
    return (
      roleId !== guildId &&
      role !== undefined &&
      !role.managed &&
      role.position < view.botTopPosition &&
      !excluded.has(roleId)
    );
  });
  if (kept.length > 0) await saveStickyRoles(deps.db, guildId, userId, kept, new Date());
}

/**
 * One member's events are handled in the order the gateway sent them (each waits for the one
 * before): a join, a role given just after it and a leave each read the settings first, and an
 * earlier event finishing last would otherwise overwrite the roles a later one remembered.
 * Different members' events run side by side.
 */
const inOrder = memberOrder();

export const autoRolesEvents = [
  onGateway('raw', 'auto-roles and sticky roles of a join, change or leave', (deps, packet) => {
    const dispatch = packet as GatewayDispatchPayload;
    if (dispatch.t === GatewayDispatchEvents.GuildMemberAdd) {
      const member = dispatch.d;
      return inOrder(member.guild_id, member.user.id, () => onJoin(deps, member));
    }
    if (dispatch.t === GatewayDispatchEvents.GuildMemberUpdate) {
      const member = dispatch.d;
      return inOrder(member.guild_id, member.user.id, () => onUpdate(deps, member));
    }
    if (dispatch.t === GatewayDispatchEvents.GuildMemberRemove) {
      const { guild_id: guildId, user } = dispatch.d;
      return inOrder(guildId, user.id, () => onLeave(deps, guildId, user.id));
    }
  }),
];
