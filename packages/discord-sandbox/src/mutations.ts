import { type APIOverwrite, type APIRole, GatewayDispatchEvents } from 'discord-api-types/v10';
import { makeBotRole, type SandboxChannel, type SandboxGuild, type SandboxMember } from './fixture.ts';
import { joiningFlags, joinsPending, rememberLeaving } from './member-screening.ts';
import { apiGuild, apiMember, guildCreatePayload, userOf } from './payloads.ts';
import { compareRoles, sortedRoles } from './permissions.ts';
import type { SandboxState } from './state.ts';
import { changeVoiceState } from './voice.ts';

/**
 * Every change to the world goes through here (messages through message-mutations.ts) so the
 * gateway sees the same events Discord would send for it.
 */

/**
 * A user joins: GUILD_MEMBER_ADD with `pending` true when the guild has Membership Screening or
 * Onboarding, and DID_REJOIN in `flags` when they were a member before (member-screening.ts).
 */
export function addMember(state: SandboxState, guild: SandboxGuild, userId: string): SandboxMember {
  const existing = guild.members.find((m) => m.user_id === userId);
  if (existing) return existing;
  const member: SandboxMember = {
    user_id: userId,
    roles: [],
    nick: null,
    joined_at: new Date(state.now()).toISOString(),
    pending: joinsPending(state, guild),
    flags: joiningFlags(guild, userId),
  };
  guild.members.push(member);
  state.dispatch(
    GatewayDispatchEvents.GuildMemberAdd,
    { ...apiMember(state, member), guild_id: guild.id },
    guild.id,
  );
  return member;
}

export function removeMember(state: SandboxState, guild: SandboxGuild, userId: string): boolean {
  const index = guild.members.findIndex((m) => m.user_id === userId);
  if (index < 0) return false;
  // A member who leaves is disconnected from voice first, as on Discord.
  changeVoiceState(state, guild, { userId, channelId: null });
  guild.members.splice(index, 1);
  rememberLeaving(guild, userId);
  if (userId === state.application.id) {
    guild.roles = guild.roles.filter((r) => r.tags?.bot_id !== userId);
    state.dispatch(GatewayDispatchEvents.GuildDelete, { id: guild.id }, guild.id);
  } else {
    state.dispatch(
      GatewayDispatchEvents.GuildMemberRemove,
      { guild_id: guild.id, user: userOf(state, userId) },
      guild.id,
    );
  }
  return true;
}

/** Adds the bot with its managed role on top of the hierarchy, as an install does. */
export function installBot(state: SandboxState, guild: SandboxGuild, permissions: string): void {
  if (state.botIsIn(guild)) return;
  const top = Math.max(0, ...guild.roles.map((r) => r.position));
  const role = makeBotRole(state.snowflake(), top + 1, state.application.id, permissions);
  guild.roles.push(role);
  guild.members.push({
    user_id: state.application.id,
    roles: [role.id],
    nick: null,
    joined_at: new Date(state.now()).toISOString(),
  });
  state.dispatch(GatewayDispatchEvents.GuildCreate, guildCreatePayload(state, guild), guild.id);
}

/** GUILD_UPDATE after a change to the guild itself (name, owner). */
export function guildUpdated(state: SandboxState, guild: SandboxGuild): void {
  state.dispatch(GatewayDispatchEvents.GuildUpdate, apiGuild(guild), guild.id);
}

export function memberUpdated(state: SandboxState, guild: SandboxGuild, member: SandboxMember): void {
  state.dispatch(
    GatewayDispatchEvents.GuildMemberUpdate,
    { ...apiMember(state, member), guild_id: guild.id },
    guild.id,
  );
}

/**
 * Adds a new role as Discord does: at position 1, just above @everyone, with every other role
 * shifted up one (each shifted role gets a GUILD_ROLE_UPDATE, as on Discord).
 */
export function createRole(state: SandboxState, guild: SandboxGuild, role: APIRole): void {
  const shifted = guild.roles.filter((r) => r.id !== guild.id && r.position >= 1);
  for (const r of shifted) r.position += 1;
  role.position = 1;
  guild.roles.push(role);
  state.dispatch(GatewayDispatchEvents.GuildRoleCreate, { guild_id: guild.id, role: { ...role } }, guild.id);
  for (const r of shifted) roleUpdated(state, guild, r);
}

/**
 * The role order `PATCH /guilds/:id/roles` asks for, bottom to top without @everyone: each
 * listed role at its requested position (1 = just above @everyone), the others keeping their
 * relative order around them.
 */
export function plannedRoleOrder(
  guild: SandboxGuild,
  moves: ReadonlyArray<{ role: APIRole; position: number }>,
): APIRole[] {
  const moving = new Set(moves.map((m) => m.role.id));
  const order = sortedRoles(guild).filter((r) => r.id !== guild.id && !moving.has(r.id));
  const placed = [...moves].sort((a, b) => a.position - b.position || compareRoles(a.role, b.role));
  for (const { role, position } of placed) {
    order.splice(Math.min(Math.max(position, 1), order.length + 1) - 1, 0, role);
  }
  return order;
}

/**
 * Renumbers the roles 1..n in `order` (bottom to top; @everyone stays 0), as Discord does after
 * a reorder, and sends a GUILD_ROLE_UPDATE for every role whose position changed.
 */
export function applyRoleOrder(state: SandboxState, guild: SandboxGuild, order: readonly APIRole[]): void {
  const changed = order.filter((role, index) => role.position !== index + 1);
  order.forEach((role, index) => {
    role.position = index + 1;
  });
  for (const role of changed) roleUpdated(state, guild, role);
}

export function roleUpdated(state: SandboxState, guild: SandboxGuild, role: APIRole): void {
  state.dispatch(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: guild.id, role: { ...role } }, guild.id);
}

export function deleteRole(state: SandboxState, guild: SandboxGuild, roleId: string): void {
  guild.roles = guild.roles.filter((r) => r.id !== roleId);
  for (const m of guild.members) m.roles = m.roles.filter((id) => id !== roleId);
  // A deleted role no longer appears in onboarding options, so answering never grants it.
  for (const prompt of state.onboarding.get(guild.id)?.prompts ?? []) {
    for (const option of prompt.options) option.role_ids = option.role_ids.filter((id) => id !== roleId);
  }
  state.dispatch(GatewayDispatchEvents.GuildRoleDelete, { guild_id: guild.id, role_id: roleId }, guild.id);
}

/** CHANNEL_UPDATE with the channel as it is now (its overwrites included). */
export function channelUpdated(state: SandboxState, guild: SandboxGuild, channel: SandboxChannel): void {
  state.dispatch(GatewayDispatchEvents.ChannelUpdate, structuredClone(channel), guild.id);
}

/** Adds or replaces a channel permission overwrite (role or member) and sends CHANNEL_UPDATE. */
export function putOverwrite(
  state: SandboxState,
  guild: SandboxGuild,
  channel: SandboxChannel,
  overwrite: APIOverwrite,
): void {
  const list = (channel.permission_overwrites ?? []).filter((o) => o.id !== overwrite.id);
  list.push({ ...overwrite });
  channel.permission_overwrites = list;
  channelUpdated(state, guild, channel);
}

/** Removes an overwrite; false when the channel had none for that id. */
export function deleteOverwrite(
  state: SandboxState,
  guild: SandboxGuild,
  channel: SandboxChannel,
  overwriteId: string,
): boolean {
  const list = channel.permission_overwrites ?? [];
  if (!list.some((o) => o.id === overwriteId)) return false;
  channel.permission_overwrites = list.filter((o) => o.id !== overwriteId);
  channelUpdated(state, guild, channel);
  return true;
}

/**
 * After a reset the bot must see the fixture again without re-identifying (discord.js
 * throttles identify by 5 s): a guild it stays in goes briefly unavailable and comes back
 * whole, a guild it left is deleted, a guild it is now in is created.
 */
export function replayGuildsAfterReset(state: SandboxState, botGuildsBefore: string[]): void {
  for (const id of botGuildsBefore) {
    const guild = state.guilds.get(id);
    const stays = guild !== undefined && state.botIsIn(guild);
    state.dispatch(GatewayDispatchEvents.GuildDelete, stays ? { id, unavailable: true } : { id }, id);
  }
  for (const guild of state.guilds.values()) {
    if (state.botIsIn(guild)) {
      state.dispatch(GatewayDispatchEvents.GuildCreate, guildCreatePayload(state, guild), guild.id);
    }
  }
}
