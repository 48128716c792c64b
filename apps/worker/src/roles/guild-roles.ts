import { type APIRole, type Client, PermissionFlagsBits } from 'discord.js';
import { fetchGuildRoles, fetchMember } from '../discord-rest.ts';

/** What a job needs to know of a guild's roles: which exist, where they sit, what they allow. */
export interface GuildRoleInfo {
  id: string;
  name: string;
  color: number;
  position: number;
  permissions: bigint;
  managed: boolean;
}

export interface GuildRolesView {
  roles: GuildRoleInfo[];
  /** The roles the bot's member holds. */
  botRoleIds: string[];
}

function fromApi(role: APIRole): GuildRoleInfo {
  return {
    id: role.id,
    name: role.name,
    color: role.color,
    position: role.position,
    permissions: BigInt(role.permissions),
    managed: role.managed,
  };
}

/**
 * The guild's roles and the bot's own. From the gateway cache when this process holds the
 * guild's shard (no REST call: the refresh runs every 5 minutes for every configured guild),
 * else by REST, since any worker process may run any guild's job.
 */
export async function guildRolesView(client: Client, guildId: string): Promise<GuildRolesView> {
  const guild = client.guilds.cache.get(guildId);
  const me = guild?.members.me;
  if (guild?.available && me) {
    return {
      roles: guild.roles.cache.map((role) => ({
        id: role.id,
        name: role.name,
        color: role.color,
        position: role.rawPosition,
        permissions: role.permissions.bitfield,
        managed: role.managed,
      })),
      botRoleIds: [...me.roles.cache.keys()],
    };
  }
  return guildRolesViewByRest(client, guildId);
}

/** Always by REST: for jobs an admin started, which must see Discord as it is now. */
export async function guildRolesViewByRest(client: Client, guildId: string): Promise<GuildRolesView> {
  const botId = client.user?.id;
  const [roles, me] = await Promise.all([
    fetchGuildRoles(client, guildId),
    botId ? fetchMember(client, guildId, botId) : Promise.resolve(null),
  ]);
  return { roles: roles.map(fromApi), botRoleIds: me?.roles ?? [] };
}

/** Whether the bot's roles (with @everyone, whose id is the guild's) grant Manage Roles. */
export function botCanManageRoles(view: GuildRolesView, guildId: string): boolean {
  const held = new Set([...view.botRoleIds, guildId]);
  const granted = view.roles
    .filter((role) => held.has(role.id))
    .reduce((bits, role) => bits | role.permissions, 0n);
  return (granted & (PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageRoles)) !== 0n;
}

/** Position of the bot's highest role (0 = only @everyone). */
export function botTopPosition(view: GuildRolesView): number {
  const held = new Set(view.botRoleIds);
  return view.roles.reduce(
    (top, role) => (held.has(role.id) && role.position > top ? role.position : top),
    0,
  );
}

export function roleAboveBotWarning(roleName: string): string {
  return `I can't give members the role "${roleName}": my role must be above it in Server Settings → Roles.`;
}
