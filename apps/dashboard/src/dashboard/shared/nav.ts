/** Dashboard navigation data: sidebar groups, feature tiles, placeholder pages (spec section 2). */

export interface NavLink {
  label: string;
  path: string;
}
export interface NavGroup {
  name: string;
  links: NavLink[];
}

const page = (label: string, slug: string): NavLink => ({ label, path: `/dashboard/${slug}` });
const single = (name: string, slug: string): NavGroup => ({ name, links: [page(name, slug)] });

const GROUPS: NavGroup[] = [
  single('Admin', 'admin'),
  single('Announcements', 'announcements'),
  { name: 'Automod', links: [page('Automod', 'automod'), page('Filters', 'filters')] },
  single('Community Server', 'community-server'),
  single('Economy', 'economy'),
  single('Games', 'games'),
  single('General', 'general'),
  single('Giveaways', 'giveaways'),
  {
    name: 'Leveling',
    links: [
      page('Settings', 'leveling/settings'),
      page('Roles', 'leveling/roles'),
      page('Boosts', 'leveling/boosts'),
      page('Leaderboard', 'leveling/leaderboard'),
    ],
  },
  single('Logging', 'logging'),
  {
    name: 'Reaction Roles',
    links: [
      page('Color Roles', 'color-roles'),
      page('Custom Reaction Roles', 'custom-reaction-roles'),
      page('Personality Roles', 'personality-roles'),
      // The JSON-backed editor of both reaction-role lists (spec: Reaction Roles editor).
      page('Reaction Roles editor', 'reaction-roles'),
    ],
  },
  single('Staff Contact', 'staff-contact'),
  single('Starboard', 'starboard'),
  single('Support Server', 'support-server'),
  single('Test Server', 'test-server'),
  single('Tickets', 'tickets'),
  single('Verification', 'verification'),
  single('Welcome', 'welcome'),
];

/** Groups sorted alphabetically, as the sidebar shows them. */
export const SIDEBAR_GROUPS: readonly NavGroup[] = [...GROUPS].sort((a, b) =>
  a.name.localeCompare(b.name, 'en'),
);

/** The sidebar group holding the link to this path, if any. */
export function groupOfPath(pathname: string): string | undefined {
  const path = pathname.replace(/\/$/, '');
  return SIDEBAR_GROUPS.find((group) => group.links.some((link) => link.path === path))?.name;
}

/** Screens built in later issues: listed in the sidebar but not linked yet. */
export const NOT_YET_AVAILABLE: ReadonlySet<string> = new Set<string>([]);

/** Placeholder pages (render nothing without a stored user). */
export const COMING_SOON_PAGES: Readonly<Record<string, { title: string; text: string }>> = {
  automod: { title: 'Automod', text: 'Automatic moderation rules for spam, raids and unwanted content.' },
  filters: { title: 'Filters', text: 'Word, link and invite filters with per-channel exceptions.' },
  logging: { title: 'Logging', text: 'Mod logs for edits, deletions, joins, leaves and moderator actions.' },
  welcome: { title: 'Welcome', text: 'Welcome messages and starter roles for new members.' },
  starboard: { title: 'Starboard', text: 'Highlight the messages your community loves most.' },
  announcements: { title: 'Announcements', text: 'Scheduled and recurring announcements.' },
  verification: { title: 'Verification', text: 'Gate new members behind a verification step.' },
  tickets: { title: 'Tickets', text: 'Private support tickets with staff.' },
  economy: { title: 'Economy', text: 'A server currency with daily rewards and a shop.' },
  admin: { title: 'Admin', text: 'Bot permissions, command access and admin tools.' },
  owner: {
    title: 'Owner',
    text: 'Owner settings: transfer ownership, danger zone and premium linkage. All placeholders for now.',
  },
  'community-server': { title: 'Community Server', text: "Settings for Space Cadet's community server." },
  'support-server': { title: 'Support Server', text: "Settings for Space Cadet's support server." },
  'staff-contact': { title: 'Staff Contact', text: 'Let members reach your staff privately.' },
  'test-server': { title: 'Test Server', text: 'Settings for the Space Cadet test server.' },
  games: { title: 'Games', text: 'Mini-games for your members.' },
  giveaways: { title: 'Giveaways', text: 'Timed giveaways with entry requirements.' },
  general: { title: 'General', text: 'General bot settings such as prefix, language and time zone.' },
  'custom-reaction-roles': {
    title: 'Custom Reaction Roles',
    text: 'Emoji-to-role panels of your own design.',
  },
};

export interface FeatureTile {
  slug: string;
  title: string;
  text: string;
  ownerOnly?: boolean;
}

export const FEATURE_TILES: readonly FeatureTile[] = [
  { slug: 'color-roles', title: 'Color Roles', text: 'Reaction roles: let members pick a name color.' },
  { slug: 'automod', title: 'Automod', text: 'Spam and raid protection.' },
  { slug: 'logging', title: 'Logging', text: 'Mod logs and audit trail.' },
  { slug: 'welcome', title: 'Welcome', text: 'Greet new members.' },
  { slug: 'leveling', title: 'Leveling', text: 'XP, level rewards and boosts.' },
  { slug: 'economy', title: 'Economy', text: 'Currency and rewards.' },
  { slug: 'verification', title: 'Verification', text: 'Gate new members.' },
  { slug: 'admin', title: 'Admin', text: 'Permissions and tools.' },
  { slug: 'owner', title: 'Owner', text: 'Transfer, danger zone, premium.', ownerOnly: true },
  {
    slug: 'community-server',
    title: 'Community Server',
    text: 'Community server settings.',
    ownerOnly: true,
  },
  { slug: 'support-server', title: 'Support Server', text: 'Support server settings.', ownerOnly: true },
  { slug: 'staff-contact', title: 'Staff Contact', text: 'Private staff messages.' },
  { slug: 'test-server', title: 'Test Server', text: 'Test server settings.', ownerOnly: true },
  { slug: 'games', title: 'Games', text: 'Mini-games.' },
  { slug: 'giveaways', title: 'Giveaways', text: 'Timed giveaways.' },
  { slug: 'general', title: 'General', text: 'Prefix, language, time zone.' },
];
