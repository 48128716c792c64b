/**
 * The shape of the sandbox's world (application, users, guilds, members) and the makers of its
 * roles, users and emojis; the seeded world itself is in default-fixture.ts.
 */
import {
  type APIEmoji,
  type APIGuildCategoryChannel,
  type APIGuildVoiceChannel,
  type APIRole,
  type APITextChannel,
  type APIUser,
  GatewayIntentBits,
  PermissionFlagsBits,
  type RoleFlags,
  type UserFlags,
} from 'discord-api-types/v10';

export type SandboxChannel = APITextChannel | APIGuildCategoryChannel | APIGuildVoiceChannel;

/**
 * A member connected to one of the guild's voice channels, as Discord keeps it (the gateway's
 * voice state object less `guild_id` and `member`, which are added when it is sent).
 */
export interface SandboxVoiceState {
  user_id: string;
  channel_id: string;
  session_id: string;
  /** Muted or deafened by the server (a moderator); `self_*`: by the member themselves. */
  mute: boolean;
  deaf: boolean;
  self_mute: boolean;
  self_deaf: boolean;
  self_video: boolean;
  suppress: boolean;
  request_to_speak_timestamp: string | null;
}

export interface SandboxMember {
  user_id: string;
  roles: string[];
  nick: string | null;
  joined_at: string;
  /** Not yet through Membership Screening / Onboarding (Discord's `pending`); absent: false. */
  pending?: boolean;
  /** Discord's guild member flags (DID_REJOIN, COMPLETED_ONBOARDING, ...); absent: 0. */
  flags?: number;
}

export interface SandboxGuild {
  id: string;
  name: string;
  icon: string | null;
  owner_id: string;
  preferred_locale: string;
  /** Includes @everyone, whose id equals the guild id. */
  roles: APIRole[];
  channels: SandboxChannel[];
  members: SandboxMember[];
  /** The guild's custom emojis (members react with them as `name:id`); none when absent. */
  emojis?: APIEmoji[];
  /**
   * The guild's features as Discord lists them (`MEMBER_VERIFICATION_GATE_ENABLED` is Membership
   * Screening); none when absent. `PATCH /_sandbox/guilds/:g {features}` sets them.
   */
  features?: string[];
  /** Users who were members and left: joining again gets them DID_REJOIN, as on Discord. */
  former_member_ids?: string[];
  /** The voice channel Discord moves idle members to (Discord's `afk_channel_id`); absent: none. */
  afk_channel_id?: string | null;
  /** Who is in the guild's voice channels (`POST /_sandbox/voice`); absent: nobody. */
  voice_states?: SandboxVoiceState[];
}

export interface SandboxApplication {
  id: string;
  name: string;
  description: string;
  client_secret: string;
  bot_token: string;
  /** Permissions the bot's managed role gets when it is installed without a `permissions` query. */
  default_bot_permissions: string;
  /**
   * The privileged gateway intents switched on for the application in the Developer Portal
   * (bits of GuildMembers, GuildPresences, MessageContent). IDENTIFY asking for another
   * privileged intent is closed with 4014, as on Discord.
   */
  privileged_intents: number;
  /**
   * The application's `flags` as the Developer Portal shows them; unset: the `_LIMITED` flag of
   * each privileged intent enabled (application.ts). `PATCH /_sandbox/application` sets both.
   */
  flags?: number;
  /** The OAuth2 redirect URIs registered in the Developer Portal (exact matches). */
  redirect_uris: string[];
  /** Also accept any loopback redirect URI (the fixture's default: the demo and tests run on free ports). */
  loopback_redirects?: boolean;
  /**
   * `session_start_limit.max_concurrency` Discord grants the bot: IDENTIFYs allowed per 5 s, one
   * per bucket `shard_id % max_concurrency` (1 unless Discord raised it for large bot sharding).
   */
  max_concurrency?: number;
}

/** Discord's privileged gateway intents: each must be enabled for the application to be asked for. */
export const PRIVILEGED_INTENTS =
  GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;

export interface SandboxFixture {
  application: SandboxApplication;
  /** Every user, the bot user included (`bot: true`, id = application id). */
  users: APIUser[];
  guilds: SandboxGuild[];
  /** Users who accept no DMs from the bot (Discord's 50007 when it tries). */
  dm_refusals?: string[];
}

const P = PermissionFlagsBits;
/** A permission bitfield string of `flags`. */
export const perms = (...flags: bigint[]): string => flags.reduce((a, b) => a | b, 0n).toString();

export const EVERYONE_PERMISSIONS = perms(
  P.ViewChannel,
  P.SendMessages,
  P.ReadMessageHistory,
  P.AddReactions,
  P.EmbedLinks,
  P.AttachFiles,
  P.UseExternalEmojis,
  P.CreateInstantInvite,
  P.ChangeNickname,
  P.UseApplicationCommands,
);

export const BOT_ROLE_PERMISSIONS = perms(
  P.ManageRoles,
  P.ViewChannel,
  P.SendMessages,
  P.EmbedLinks,
  P.AttachFiles,
  P.ReadMessageHistory,
  P.AddReactions,
  P.UseExternalEmojis,
  P.ManageMessages,
);

export function makeRole(
  id: string,
  name: string,
  position: number,
  permissions: string,
  extra: Partial<APIRole> = {},
): APIRole {
  const color = extra.color ?? 0;
  return {
    id,
    name,
    color,
    colors: { primary_color: color, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions,
    managed: false,
    mentionable: false,
    flags: 0 as RoleFlags,
    ...extra,
  };
}

export function makeBotRole(id: string, position: number, botId: string, permissions: string): APIRole {
  return makeRole(id, 'Space Cadet', position, permissions, {
    managed: true,
    tags: { bot_id: botId },
    color: 0x5865f2,
  });
}

/** A user as Discord describes them (`bot` for another app's bot account). */
export function makeUser(
  id: string,
  username: string,
  globalName: string | null,
  avatar: string | null,
  bot = false,
): APIUser {
  return {
    id,
    username,
    discriminator: '0',
    global_name: globalName,
    avatar,
    bot,
    public_flags: 0 as UserFlags,
    flags: 0 as UserFlags,
    primary_guild: null,
  };
}

/** A custom emoji uploaded to a guild, as `GET /guilds/:id/emojis` lists it. */
export function makeEmoji(id: string, name: string, animated = false): APIEmoji {
  return { id, name, roles: [], require_colons: true, managed: false, animated, available: true };
}
