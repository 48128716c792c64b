/**
 * The seeded world `defaultFixture()` returns: the application, six users and three guilds
 * (ids from `SANDBOX_IDS`), built with the makers of fixture.ts.
 */
import {
  type APIGuildVoiceChannel,
  type APITextChannel,
  type ChannelFlags,
  ChannelType,
  GatewayIntentBits,
  PermissionFlagsBits,
  type UserFlags,
} from 'discord-api-types/v10';
import {
  BOT_ROLE_PERMISSIONS,
  EVERYONE_PERMISSIONS,
  makeBotRole,
  makeEmoji,
  makeRole,
  makeUser,
  perms,
  type SandboxFixture,
  type SandboxGuild,
  type SandboxMember,
} from './fixture.ts';
import { SANDBOX_BOT_TOKEN, SANDBOX_CLIENT_SECRET, SANDBOX_IDS } from './ids.ts';

const P = PermissionFlagsBits;

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

function voiceChannel(id: string, guildId: string, name: string, position: number): APIGuildVoiceChannel {
  return {
    id,
    type: ChannelType.GuildVoice,
    guild_id: guildId,
    name,
    position,
    parent_id: null,
    permission_overwrites: [],
    flags: 0 as ChannelFlags,
    nsfw: false,
    last_message_id: null,
    rate_limit_per_user: 0,
    bitrate: 64000,
    user_limit: 0,
    rtc_region: null,
  };
}

const JOINED = '2024-01-15T12:00:00.000Z';
const member = (user_id: string, roles: string[] = []): SandboxMember => ({
  user_id,
  roles,
  nick: null,
  joined_at: JOINED,
});

/** Sandbox Station: Ada's guild with the bot, a category of text channels, two voice channels and an AFK one, crew, managers and moderators. */
function stationGuild(): SandboxGuild {
  const { users: u, guilds: g, channels: c, roles: r, emojis: e } = SANDBOX_IDS;
  return {
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
      voiceChannel(c.stationLounge, g.station, 'Lounge', 4),
      voiceChannel(c.stationBriefing, g.station, 'Briefing Room', 5),
      voiceChannel(c.stationAfk, g.station, 'AFK', 6),
    ],
    afk_channel_id: c.stationAfk,
    members: [
      member(u.ada),
      member(u.mo, [r.stationManagers, r.stationCrew]),
      member(u.nia, [r.stationCrew]),
      member(SANDBOX_IDS.bot, [r.stationBot]),
    ],
    emojis: [makeEmoji(e.stationRocket, 'rocket'), makeEmoji(e.stationParrot, 'party_parrot', true)],
  };
}

/** Quiet Quarters: Zed's guild without the bot (Ada is an admin there). */
function quietGuild(): SandboxGuild {
  const { users: u, guilds: g, channels: c, roles: r } = SANDBOX_IDS;
  return {
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
}

/** Other Orbit: Rex's guild with the bot and no other roles; Mo is a member. */
function orbitGuild(): SandboxGuild {
  const { users: u, guilds: g, channels: c, roles: r, emojis: e } = SANDBOX_IDS;
  return {
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
}

/** The seeded world (its ids are `SANDBOX_IDS`). Returns a fresh copy on every call. */
export function defaultFixture(): SandboxFixture {
  const u = SANDBOX_IDS.users;
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
      // The demo's dashboard and API (docker compose, `pnpm dev`); any other loopback URI is
      // accepted too until `PATCH /_sandbox/application` registers an exact list.
      redirect_uris: ['http://127.0.0.1:5173/auth/callback', 'http://127.0.0.1:4000/install/callback'],
      loopback_redirects: true,
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
    guilds: [stationGuild(), quietGuild(), orbitGuild()],
  };
}
