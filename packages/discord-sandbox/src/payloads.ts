import type { GatewayGuildCreateDispatchData, UserFlags } from 'discord-api-types/v10';
import {
  type APIGuild,
  type APIGuildMember,
  type APIUser,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  type GuildFeature,
  type GuildMemberFlags,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  type GuildSystemChannelFlags,
  GuildVerificationLevel,
  type Locale,
} from 'discord-api-types/v10';
import type { SandboxGuild, SandboxMember } from './fixture.ts';
import { sortedRoles } from './permissions.ts';
import type { SandboxState } from './state.ts';

/** Turns the sandbox's guild record into Discord's guild object (REST `GET /guilds/:id`). */
export function apiGuild(guild: SandboxGuild): APIGuild {
  const firstText = guild.channels.find((c) => c.type === 0);
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: guild.owner_id,
    region: 'deprecated',
    afk_channel_id: guild.afk_channel_id ?? null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: GuildVerificationLevel.Low,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.AllMembers,
    roles: sortedRoles(guild),
    emojis: structuredClone(guild.emojis ?? []),
    stickers: [],
    features: [...(guild.features ?? [])] as GuildFeature[],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: firstText?.id ?? null,
    system_channel_flags: 0 as GuildSystemChannelFlags,
    rules_channel_id: null,
    max_members: 500000,
    vanity_url_code: null,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: 0,
    preferred_locale: guild.preferred_locale as Locale,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    hub_type: null,
    safety_alerts_channel_id: null,
    incidents_data: null,
    // Discord's guild object carries these too (the OpenAPI description requires them).
    ...({ nsfw: false, max_presences: null, home_header: null } as object),
  };
}

export function userOf(state: SandboxState, userId: string): APIUser {
  return (
    state.users.get(userId) ?? {
      id: userId,
      username: `user-${userId.slice(-4)}`,
      discriminator: '0',
      global_name: null,
      avatar: null,
      public_flags: 0 as UserFlags,
      flags: 0 as UserFlags,
      primary_guild: null,
    }
  );
}

export function apiMember(state: SandboxState, member: SandboxMember): APIGuildMember {
  return {
    user: userOf(state, member.user_id),
    nick: member.nick,
    avatar: null,
    banner: null,
    roles: [...member.roles],
    joined_at: member.joined_at,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: (member.flags ?? 0) as GuildMemberFlags,
    pending: member.pending ?? false,
    communication_disabled_until: null,
  };
}

/** The GUILD_CREATE a bot session receives for a guild it is in. */
export function guildCreatePayload(state: SandboxState, guild: SandboxGuild): GatewayGuildCreateDispatchData {
  const botMember = guild.members.find((m) => m.user_id === state.application.id);
  return {
    ...apiGuild(guild),
    joined_at: botMember?.joined_at ?? new Date(state.now()).toISOString(),
    large: false,
    unavailable: false,
    member_count: guild.members.length,
    voice_states: structuredClone(guild.voice_states ?? []),
    members: guild.members.map((m) => apiMember(state, m)),
    channels: structuredClone(guild.channels),
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export interface MemberRequest {
  guild_id?: string;
  nonce?: string;
  user_ids?: string[];
}

/** Answers gateway op 8 (request guild members) in a single chunk. */
export function memberChunkPayload(state: SandboxState, request: MemberRequest): object | null {
  const guild = request.guild_id ? state.guilds.get(request.guild_id) : undefined;
  if (!guild) return null;
  const members = guild.members.filter((m) => !request.user_ids || request.user_ids.includes(m.user_id));
  return {
    guild_id: guild.id,
    members: members.map((m) => apiMember(state, m)),
    chunk_index: 0,
    chunk_count: 1,
    not_found: [],
    ...(request.nonce ? { nonce: request.nonce } : {}),
  };
}
