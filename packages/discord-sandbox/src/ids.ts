/** Fixed ids of the default fixture, so scripts, tests and `.env` files can name them. */
export const SANDBOX_IDS = {
  app: '100000000000000001',
  bot: '100000000000000001',
  users: {
    ada: '200000000000000001',
    mo: '200000000000000002',
    nia: '200000000000000003',
    rex: '200000000000000004',
    /** Owner of Quiet Quarters, so that ada is an ADMINISTRATOR there without owning it. */
    zed: '200000000000000005',
  },
  guilds: {
    station: '300000000000000001',
    quiet: '300000000000000002',
    orbit: '300000000000000003',
  },
  channels: {
    general: '300000000000000011',
    roles: '300000000000000012',
    levelUps: '300000000000000013',
    announcements: '300000000000000014',
    stationCategory: '300000000000000015',
    /** Station's voice channels (type 2): two to talk in, and the AFK channel (`afk_channel_id`). */
    stationLounge: '300000000000000016',
    stationBriefing: '300000000000000017',
    stationAfk: '300000000000000018',
    quietLobby: '300000000000000041',
    quietSetup: '300000000000000042',
    orbitHangar: '300000000000000061',
    orbitComms: '300000000000000062',
  },
  roles: {
    stationCrew: '300000000000000021',
    stationManagers: '300000000000000022',
    stationBot: '300000000000000023',
    stationModerators: '300000000000000024',
    quietAdmins: '300000000000000031',
    orbitBot: '300000000000000051',
  },
  emojis: {
    stationRocket: '300000000000000081',
    stationParrot: '300000000000000082',
    orbitComet: '300000000000000091',
  },
} as const;

export const SANDBOX_CLIENT_SECRET = 'sandbox-secret';
export const SANDBOX_BOT_TOKEN = 'sandbox-bot-token';
