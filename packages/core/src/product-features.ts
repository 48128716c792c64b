/**
 * Every feature of Space Cadet, once. The landing page's cards and command list, the dashboard
 * overview's tiles, the settings sidebar and the Coming Soon pages are all built from this list,
 * so none of them can say something else. `apps/worker/test/product-features.test.ts` checks it
 * against the features and slash commands the worker registers, and
 * `apps/dashboard/src/dashboard/DashboardApp.test.tsx` checks every route against the dashboard.
 *
 * Why one file: the list is the file; split, it would no longer be the one place a feature is named.
 */

/** live: members can use it in Discord today; coming_soon: announced, not built. */
export type FeatureStatus = 'live' | 'coming_soon';

/** A dashboard path, always under /dashboard. */
export type DashboardRoute = `/dashboard/${string}`;

export interface ProductFeature {
  /** Stable id; for a live feature, also the name of the worker feature that runs it. */
  id: string;
  /** How every surface names it ("Color Roles"). */
  name: string;
  /** Its dashboard screen; null for a feature without one. */
  route: DashboardRoute | null;
  status: FeatureStatus;
  /** The slash commands the bot registers for it, without the slash. */
  commands: readonly string[];
  /** One line, for the overview tile. */
  summary: string;
  /** A few lines, for the landing card and the Coming Soon page. */
  description: string;
  /** Whether the landing page shows a card for it. */
  landing: boolean;
  /** Who sees its tile on the server overview; null for no tile. */
  tile: 'everyone' | 'owner' | null;
  /**
   * Its place in the settings sidebar: the group, and the links when the feature has several
   * screens (one link to `route`, named `name`, otherwise); null when the sidebar leaves it out.
   */
  sidebar: { group: string; pages?: readonly { label: string; route: DashboardRoute }[] } | null;
}

const comingSoon = {
  status: 'coming_soon',
  commands: [],
} as const satisfies Partial<ProductFeature>;

/** In the overview's tile order (the spec's), the landing and the sidebar order their own. */
export const PRODUCT_FEATURES: readonly ProductFeature[] = [
  {
    id: 'color-roles',
    name: 'Color Roles',
    route: '/dashboard/color-roles',
    status: 'live',
    commands: ['colors'],
    summary: 'Reaction roles: let members pick a name color.',
    description:
      'Generate a palette of color roles and post a panel: members click a color, or a family and then a shade, and /colors shows them where the panel is.',
    landing: true,
    tile: 'everyone',
    sidebar: { group: 'Reaction Roles' },
  },
  {
    id: 'personality-roles',
    name: 'Personality Roles',
    route: '/dashboard/personality-roles',
    status: 'live',
    commands: [],
    summary: 'Question messages members answer with a click.',
    description:
      'Turn on the questions you want (pronouns, age range, hobbies and more): the bot creates a role for every answer and posts one message per question, members click to pick theirs, and every 5 minutes it puts back any role or message that went missing.',
    landing: true,
    tile: 'everyone',
    sidebar: { group: 'Reaction Roles' },
  },
  {
    id: 'reaction-roles',
    name: 'Reaction Roles',
    route: '/dashboard/reaction-roles',
    status: 'live',
    commands: [],
    summary: 'Emoji reactions that give roles.',
    description:
      'Two lists of emoji and roles, a color list where members hold one and a personality list where they hold any number, posted as reaction panels: members react to get a role and remove the reaction to drop it.',
    landing: true,
    tile: null,
    sidebar: null,
  },
  {
    id: 'role-menus',
    name: 'Role Menus',
    route: '/dashboard/custom-reaction-roles',
    status: 'live',
    commands: [],
    summary: 'Self-role menus on your own roles.',
    description:
      'Menus of your own on any roles: buttons, a select menu or reactions, where members take any roles, one at a time, only add, only drop, or up to a limit, and a required role if you like.',
    landing: true,
    tile: 'everyone',
    sidebar: { group: 'Reaction Roles' },
  },
  {
    id: 'automod',
    name: 'Automod',
    route: '/dashboard/automod',
    ...comingSoon,
    summary: 'Spam and raid protection.',
    description:
      'Automatic moderation rules against spam, floods, mass mentions, raids and unwanted content.',
    landing: true,
    tile: 'everyone',
    sidebar: { group: 'Automod' },
  },
  {
    id: 'filters',
    name: 'Filters',
    route: '/dashboard/filters',
    ...comingSoon,
    summary: 'Word, link and invite filters.',
    description: 'Word, link and invite filters with per-channel exceptions.',
    landing: false,
    tile: null,
    sidebar: { group: 'Automod' },
  },
  {
    id: 'logging',
    name: 'Logging',
    route: '/dashboard/logging',
    ...comingSoon,
    summary: 'Mod logs and audit trail.',
    description: 'Mod logs for edits, deletions, joins, leaves and moderator actions.',
    landing: true,
    tile: 'everyone',
    sidebar: { group: 'Logging' },
  },
  {
    id: 'welcome',
    name: 'Welcome',
    route: '/dashboard/welcome',
    status: 'live',
    commands: [],
    summary: 'Welcome and goodbye messages, auto-roles, sticky roles.',
    description:
      'Welcome and goodbye messages, sent when members join or after they finish Onboarding (with their answers), by DM too, with a welcome card; auto-roles for people and for bots; sticky roles given back to members who rejoin.',
    landing: true,
    tile: 'everyone',
    sidebar: { group: 'Welcome' },
  },
  {
    id: 'leveling',
    name: 'Leveling',
    route: '/dashboard/leveling',
    status: 'live',
    commands: ['rank', 'leaderboard', 'xp', 'rank-color'],
    summary: 'XP, level rewards and boosts.',
    description:
      'Members earn XP for chatting and reach levels that grant reward roles; boosts multiply XP for the server, a role or a member, and /rank and /leaderboard show where everyone stands.',
    landing: true,
    tile: 'everyone',
    sidebar: {
      group: 'Leveling',
      pages: [
        { label: 'Settings', route: '/dashboard/leveling/settings' },
        { label: 'Roles', route: '/dashboard/leveling/roles' },
        { label: 'Boosts', route: '/dashboard/leveling/boosts' },
        { label: 'Leaderboard', route: '/dashboard/leveling/leaderboard' },
        { label: 'Seasons', route: '/dashboard/leveling/seasons' },
      ],
    },
  },
  {
    id: 'economy',
    name: 'Economy',
    route: '/dashboard/economy',
    ...comingSoon,
    summary: 'Currency and rewards.',
    description: 'A server currency with daily rewards and a shop.',
    landing: false,
    tile: 'everyone',
    sidebar: { group: 'Economy' },
  },
  {
    id: 'verification',
    name: 'Verification',
    route: '/dashboard/verification',
    ...comingSoon,
    summary: 'Gate new members.',
    description: 'Gate new members behind a verification step.',
    landing: false,
    tile: 'everyone',
    sidebar: { group: 'Verification' },
  },
  {
    id: 'admin',
    name: 'Admin',
    route: '/dashboard/admin',
    ...comingSoon,
    summary: 'Permissions and tools.',
    description: 'Bot permissions, command access and admin tools.',
    landing: false,
    tile: 'everyone',
    sidebar: { group: 'Admin' },
  },
  {
    id: 'owner',
    name: 'Owner',
    route: '/dashboard/owner',
    ...comingSoon,
    summary: 'Transfer, danger zone, premium.',
    description:
      'Owner settings: transfer ownership, danger zone and premium linkage. All placeholders for now.',
    landing: false,
    tile: 'owner',
    sidebar: null,
  },
  {
    id: 'community-server',
    name: 'Community Server',
    route: '/dashboard/community-server',
    ...comingSoon,
    summary: 'Community server settings.',
    description: "Settings for Space Cadet's community server.",
    landing: false,
    tile: 'owner',
    sidebar: { group: 'Community Server' },
  },
  {
    id: 'support-server',
    name: 'Support Server',
    route: '/dashboard/support-server',
    ...comingSoon,
    summary: 'Support server settings.',
    description: "Settings for Space Cadet's support server.",
    landing: false,
    tile: 'owner',
    sidebar: { group: 'Support Server' },
  },
  {
    id: 'staff-contact',
    name: 'Staff Contact',
    route: '/dashboard/staff-contact',
    ...comingSoon,
    summary: 'Private staff messages.',
    description: 'Let members reach your staff privately.',
    landing: false,
    tile: 'everyone',
    sidebar: { group: 'Staff Contact' },
  },
  {
    id: 'test-server',
    name: 'Test Server',
    route: '/dashboard/test-server',
    ...comingSoon,
    summary: 'Test server settings.',
    description: 'Settings for the Space Cadet test server.',
    landing: false,
    tile: 'owner',
    sidebar: { group: 'Test Server' },
  },
  {
    id: 'games',
    name: 'Games',
    route: '/dashboard/games',
    ...comingSoon,
    summary: 'Mini-games.',
    description: 'Mini-games for your members.',
    landing: true,
    tile: 'everyone',
    sidebar: { group: 'Games' },
  },
  {
    id: 'giveaways',
    name: 'Giveaways',
    route: '/dashboard/giveaways',
    ...comingSoon,
    summary: 'Timed giveaways.',
    description: 'Timed giveaways with fair draws and entry requirements.',
    landing: true,
    tile: 'everyone',
    sidebar: { group: 'Giveaways' },
  },
  {
    id: 'general',
    name: 'General',
    route: '/dashboard/general',
    ...comingSoon,
    summary: 'Prefix, language, time zone.',
    description: 'General bot settings such as prefix, language and time zone.',
    landing: false,
    tile: 'everyone',
    sidebar: { group: 'General' },
  },
  {
    id: 'announcements',
    name: 'Announcements',
    route: '/dashboard/announcements',
    ...comingSoon,
    summary: 'Scheduled announcements.',
    description: 'Scheduled and recurring announcements.',
    landing: false,
    tile: null,
    sidebar: { group: 'Announcements' },
  },
  {
    id: 'starboard',
    name: 'Starboard',
    route: '/dashboard/starboard',
    ...comingSoon,
    summary: 'A hall of fame for messages.',
    description: 'Highlight the messages your community loves most.',
    landing: true,
    tile: null,
    sidebar: { group: 'Starboard' },
  },
  {
    id: 'tickets',
    name: 'Tickets',
    route: '/dashboard/tickets',
    ...comingSoon,
    summary: 'Private support tickets.',
    description: 'Private support tickets with staff.',
    landing: true,
    tile: null,
    sidebar: { group: 'Tickets' },
  },
  {
    id: 'dictionary',
    name: 'Dictionary & translation',
    route: null,
    ...comingSoon,
    summary: 'Look up and translate words.',
    description:
      'Look up a word or translate a message without leaving the conversation, by command or from the message’s right-click menu (context menus).',
    landing: true,
    tile: null,
    sidebar: null,
  },
  {
    id: 'temp-roles',
    name: 'Temporary Roles',
    route: null,
    status: 'live',
    commands: ['temprole'],
    summary: 'Roles that expire on their own.',
    description:
      'Give a member a role for ten minutes, two hours or a week, with /temprole or from a role menu, and the bot takes it back on time, even after a restart.',
    landing: false,
    tile: null,
    sidebar: null,
  },
];

/** The features members can use today. */
export const LIVE_FEATURES: readonly ProductFeature[] = PRODUCT_FEATURES.filter(
  (feature) => feature.status === 'live',
);

/** Every slash command of the bot, with the feature it belongs to, in the list's order. */
export const SLASH_COMMANDS: readonly { name: string; feature: ProductFeature }[] = PRODUCT_FEATURES.flatMap(
  (feature) => feature.commands.map((name) => ({ name, feature })),
);

/** The live features the landing page shows (`landing: true`): its cards and its sentences. */
export const LANDING_FEATURES: readonly ProductFeature[] = LIVE_FEATURES.filter((feature) => feature.landing);

/** The commands the landing page lists: those of the features it shows (`landing: true`). */
export const LANDING_COMMANDS: readonly { name: string; feature: ProductFeature }[] = SLASH_COMMANDS.filter(
  (command) => command.feature.landing,
);

/** Every dashboard path a feature owns: its route and its sidebar pages. */
export function featureRoutes(feature: ProductFeature): DashboardRoute[] {
  const pages = feature.sidebar?.pages?.map((page) => page.route) ?? [];
  return feature.route ? [feature.route, ...pages] : pages;
}
