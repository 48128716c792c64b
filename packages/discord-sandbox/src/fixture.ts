import {
  type APIEmoji,
  type APIGuildCategoryChannel,
  type APIRole,
  type APITextChannel,
  type APIUser,
  type ChannelFlags,
  ChannelType,
  GatewayIntentBits,
  PermissionFlagsBits,
  type RoleFlags,
  type UserFlags,
} from 'discord-api-types/v10';
import { SANDBOX_BOT_TOKEN, SANDBOX_CLIENT_SECRET, SANDBOX_IDS } from './ids.ts';

export type SandboxChannel = APITextChannel | APIGuildCategoryChannel;

export interface SandboxMember {
  user_id: string;
  roles: string[];
  nick: string | null;
  joined_at: string;
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
const perms = (...flags: bigint[]): string => flags.reduce((a, b) => a | b, 0n).toString();

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

function textChannel(
  id: string,
  guildId: string,
  name: string,
  position: number,
  parentId: string | null,
): APITextChannel {
  return {
    id,
    type: ChannelType.GuildText,
    guild_id: guildId,
    name,
    position,
    parent_id: parentId,
    permission_overwrites: [],
    flags: 0 as ChannelFlags,
    topic: null,
    nsfw: false,
    last_message_id: null,
    rate_limit_per_user: 0,
  };
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

const JOINED = '2024-01-15T12:00:00.000Z';
const member = (user_id: string, roles: string[] = []): SandboxMember => ({
  user_id,
  roles,
  nick: null,
  joined_at: JOINED,
});

/** The seeded world (its ids are `SANDBOX_IDS`). Returns a fresh copy on every call. */
export function defaultFixture(): SandboxFixture {
  const { users: u, guilds: g, channels: c, roles: r, emojis: e } = SANDBOX_IDS;
  const station: SandboxGuild = {
    id: g.station,
    name: 'Sandbox Station',
    icon: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
    owner_id: u.ada,
    preferred_locale: 'en-US',
    roles: [
      makeRole(g.station, '@everyone', 0, EVERYONE_PERMISSIONS),
      makeRole(r.stationCrew, 'Crew', 1, '0', { color: 0x2ecc71, hoist: true }),
      makeRole(r.stationManagers, 'Managers', 2, perms(P.ManageGuild), { color: 0xe67e22 }),
      makeBotRole(r.stationBot, 3, SANDBOX_IDS.bot, BOT_ROLE_PERMISSIONS),
      makeRole(r.stationModerators, 'Moderators', 4, perms(P.KickMembers, P.ManageMessages, P.ManageRoles), {
        color: 0xe74c3c,
        hoist: true,
      }),
    ],
    channels: [
      {
        id: c.stationCategory,
        type: ChannelType.GuildCategory,
        guild_id: g.station,
        name: 'Space Station',
        position: 0,
        parent_id: null,
        permission_overwrites: [],
        flags: 0 as ChannelFlags,
        nsfw: false,
      },
      textChannel(c.general, g.station, 'general', 0, c.stationCategory),
      textChannel(c.roles, g.station, 'roles', 1, c.stationCategory),
      textChannel(c.levelUps, g.station, 'level-ups', 2, c.stationCategory),
      textChannel(c.announcements, g.station, 'announcements', 3, c.stationCategory),
    ],
    members: [
      member(u.ada),
      member(u.mo, [r.stationManagers, r.stationCrew]),
      member(u.nia, [r.stationCrew]),
      member(SANDBOX_IDS.bot, [r.stationBot]),
    ],
    emojis: [makeEmoji(e.stationRocket, 'rocket'), makeEmoji(e.stationParrot, 'party_parrot', true)],
  };
  const quiet: SandboxGuild = {
    id: g.quiet,
    name: 'Quiet Quarters',
    icon: null,
    owner_id: u.zed,
    preferred_locale: 'en-US',
    roles: [
      makeRole(g.quiet, '@everyone', 0, EVERYONE_PERMISSIONS),
      makeRole(r.quietAdmins, 'Admins', 1, perms(P.Administrator), { color: 0x9b59b6, hoist: true }),
    ],
    channels: [
      textChannel(c.quietLobby, g.quiet, 'lobby', 0, null),
      textChannel(c.quietSetup, g.quiet, 'bot-setup', 1, null),
    ],
    members: [member(u.zed), member(u.ada, [r.quietAdmins]), member(u.nia)],
    emojis: [],
  };
  const orbit: SandboxGuild = {
    id: g.orbit,
    name: 'Other Orbit',
    icon: 'f0e1d2c3b4a5968778695a4b3c2d1e0f',
    owner_id: u.rex,
    preferred_locale: 'en-GB',
    roles: [
      makeRole(g.orbit, '@everyone', 0, EVERYONE_PERMISSIONS),
      makeBotRole(r.orbitBot, 1, SANDBOX_IDS.bot, BOT_ROLE_PERMISSIONS),
    ],
    channels: [
      textChannel(c.orbitHangar, g.orbit, 'hangar', 0, null),
      textChannel(c.orbitComms, g.orbit, 'comms', 1, null),
    ],
    members: [member(u.rex), member(u.mo), member(SANDBOX_IDS.bot, [r.orbitBot])],
    emojis: [makeEmoji(e.orbitComet, 'comet')],
  };
  return {
    application: {
      id: SANDBOX_IDS.app,
      name: 'Space Cadet',
      description: 'A companion bot for color roles, personality roles and leveling.',
      client_secret: SANDBOX_CLIENT_SECRET,
      bot_token: SANDBOX_BOT_TOKEN,
      default_bot_permissions: BOT_ROLE_PERMISSIONS,
      // Server Members on (the product needs it); Presence and Message Content off.
      privileged_intents: GatewayIntentBits.GuildMembers,
    },
    users: [
      {
        id: SANDBOX_IDS.bot,
        username: 'Space Cadet',
        discriminator: '0',
        global_name: null,
        avatar: '5ace0ca4e75ace0ca4e75ace0ca4e75a',
        bot: true,
        public_flags: 0 as UserFlags,
        flags: 0 as UserFlags,
        primary_guild: null,
      },
      makeUser(u.ada, 'ada', 'Ada', '0a1da0a1da0a1da0a1da0a1da0a1da0a'),
      makeUser(u.mo, 'mo', 'Mo', '0b2e0b2e0b2e0b2e0b2e0b2e0b2e0b2e'),
      makeUser(u.nia, 'nia', 'Nia', '0c3f0c3f0c3f0c3f0c3f0c3f0c3f0c3f'),
      makeUser(u.rex, 'rex', 'Rex', '0d4a0d4a0d4a0d4a0d4a0d4a0d4a0d4a'),
      makeUser(u.zed, 'zed', 'Zed', '0e5b0e5b0e5b0e5b0e5b0e5b0e5b0e5b'),
    ],
    guilds: [station, quiet, orbit],
  };
}
