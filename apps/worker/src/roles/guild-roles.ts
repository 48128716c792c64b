import { type APIRole, type Client, type Collection, PermissionFlagsBits, type Role } from 'discord.js';
import { fetchGuildRoles, fetchMember } from '../discord-rest.ts';

/** What a job needs to know of one role: where it sits and what it is called. */
export interface GuildRoleInfo {
  id: string;
  name: string;
  color: number;
  position: number;
  managed: boolean;
}

/**
 * A guild's roles as a job sees them, answering by id so a check of a few roles does not copy
 * all of them: the refresh asks this of every configured guild every 5 minutes.
 */
export interface GuildRolesView {
  count: number;
  has(roleId: string): boolean;
  role(roleId: string): GuildRoleInfo | undefined;
  /** The role's position, without copying the role (a check of every option's role). */
  positionOf(roleId: string): number | undefined;
  /** Every role (to find one by name). */
  all(): GuildRoleInfo[];
  /** The bot's roles (with @everyone) grant Manage Roles or Administrator. */
  botCanManageRoles: boolean;
  /** Position of the bot's highest role (0 = only @everyone). */
  botTopPosition: number;
}

const MANAGE = PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageRoles;

/**
 * The guild's roles and the bot's own. From the gateway cache when this process holds the
 * guild's shard (no REST call), else by REST, since any worker process may run any guild's job.
 */
export async function guildRolesView(client: Client, guildId: string): Promise<GuildRolesView> {
  const guild = client.guilds.cache.get(guildId);
  const me = guild?.members.me;
  if (!guild?.available || !me) return guildRolesViewByRest(client, guildId);
  const roles = guild.roles.cache;
  // One pass over the bot's roles for both answers (discord.js' `permissions` and
  // `roles.highest` getters each walk every role of the guild again).
  let granted = roles.get(guildId)?.permissions.bitfield ?? 0n;
  let top = 0;
  for (const role of me.roles.cache.values()) {
    granted |= role.permissions.bitfield;
    if (role.id !== guildId && role.rawPosition > top) top = role.rawPosition;
  }
  return new CachedRolesView(roles, guild.ownerId === me.id || (granted & MANAGE) !== 0n, top);
}

const cachedRoleInfo = (role: Role): GuildRoleInfo => ({
  id: role.id,
  name: role.name,
  color: role.color,
  position: role.rawPosition,
  managed: role.managed,
});

/**
 * The view over the gateway cache. A class, not an object of closures: the refresh makes one per
 * guild every 5 minutes, and five closures made (and named, under tsx) per view showed in its profile.
 */
class CachedRolesView implements GuildRolesView {
  constructor(
    private readonly roles: Collection<string, Role>,
    readonly botCanManageRoles: boolean,
    readonly botTopPosition: number,
  ) {}

  get count(): number {
    return this.roles.size;
  }

  has(roleId: string): boolean {
    return this.roles.has(roleId);
  }

  role(roleId: string): GuildRoleInfo | undefined {
    const role = this.roles.get(roleId);
    return role ? cachedRoleInfo(role) : undefined;
  }

  positionOf(roleId: string): number | undefined {
    return this.roles.get(roleId)?.rawPosition;
  }

  all(): GuildRoleInfo[] {
    return this.roles.map(cachedRoleInfo);
  }
}

/** Always by REST: for jobs an admin started, which must see Discord as it is now. */
export async function guildRolesViewByRest(client: Client, guildId: string): Promise<GuildRolesView> {
  const botId = client.user?.id;
  const [roles, me] = await Promise.all([
    fetchGuildRoles(client, guildId),
    botId ? fetchMember(client, guildId, botId) : Promise.resolve(null),
  ]);
  const byId = new Map<string, APIRole>(roles.map((role) => [role.id, role]));
  const held = new Set([...(me?.roles ?? []), guildId]);
  const botRoles = roles.filter((role) => held.has(role.id));
  const granted = botRoles.reduce((bits, role) => bits | BigInt(role.permissions), 0n);
  const info = (role: APIRole): GuildRoleInfo => ({
    id: role.id,
    name: role.name,
    color: role.color,
    position: role.position,
    managed: role.managed,
  });
  return {
    count: roles.length,
    has: (roleId) => byId.has(roleId),
    role: (roleId) => {
      const role = byId.get(roleId);
      return role ? info(role) : undefined;
    },
    positionOf: (roleId) => byId.get(roleId)?.position,
    all: () => roles.map(info),
    botCanManageRoles: (granted & MANAGE) !== 0n,
    botTopPosition: botRoles.reduce(
      (top, role) => (role.id !== guildId && role.position > top ? role.position : top),
      0,
    ),
  };
}

export function roleAboveBotWarning(roleName: string): string {
  return `I can't give members the role "${roleName}": my role must be above it in Server Settings → Roles.`;
}
