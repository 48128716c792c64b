/**
 * What the bot needs of Discord's permissions, per feature: the invite asks for the bits of the
 * features a server uses (`botPermissionsFor`), and the dashboard names a feature's missing
 * ones next to its switch (`missingBotPermissions`). The one place these bits are written down.
 * Light (no zod), so the landing page can build its invite link without loading the rest of core.
 */
import type { BotFeature } from '@spacecadet/contract/install-state';

export { BOT_FEATURES, type BotFeature } from '@spacecadet/contract/install-state';

/** Discord's permission bits the bot uses (https://discord.com/developers/docs/topics/permissions). */
export const BOT_PERMISSION_BITS = {
  ADMINISTRATOR: 1n << 3n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MANAGE_ROLES: 1n << 28n,
} as const;
export type BotPermission = keyof typeof BOT_PERMISSION_BITS;

/** As Discord's server settings name them. */
export const BOT_PERMISSION_LABELS: Readonly<Record<BotPermission, string>> = {
  ADMINISTRATOR: 'Administrator',
  MANAGE_GUILD: 'Manage Server',
  ADD_REACTIONS: 'Add Reactions',
  VIEW_CHANNEL: 'View Channels',
  SEND_MESSAGES: 'Send Messages',
  MANAGE_MESSAGES: 'Manage Messages',
  EMBED_LINKS: 'Embed Links',
  ATTACH_FILES: 'Attach Files',
  READ_MESSAGE_HISTORY: 'Read Message History',
  MANAGE_ROLES: 'Manage Roles',
};

/**
 * Every server's features: what the invite asks for when it knows nothing more of the server.
 * `onboarding` is off unless a server turns it on.
 */
export const BASE_BOT_FEATURES: readonly BotFeature[] = [
  'color-roles',
  'personality-roles',
  'leveling',
  'reaction-roles',
  'welcome',
];

/**
 * What each feature does in Discord. Reaction roles react with each emoji of a panel and remove
 * members' reactions (a swapped color, a removed row): Add Reactions and Manage Messages. Leveling's image reward roles grant Attach Files, and a bot can only grant what it
 * has. Onboarding is edited with Manage Server (its prompts give roles: Manage Roles too). Welcome posts
 * greetings and goodbyes (the welcome card is a file) and gives auto-roles and sticky roles.
 */
export const FEATURE_PERMISSIONS: Readonly<Record<BotFeature, readonly BotPermission[]>> = {
  'color-roles': ['MANAGE_ROLES', 'VIEW_CHANNEL', 'SEND_MESSAGES', 'EMBED_LINKS', 'READ_MESSAGE_HISTORY'],
  'personality-roles': [
    'MANAGE_ROLES',
    'VIEW_CHANNEL',
    'SEND_MESSAGES',
    'EMBED_LINKS',
    'READ_MESSAGE_HISTORY',
  ],
  leveling: ['MANAGE_ROLES', 'VIEW_CHANNEL', 'SEND_MESSAGES', 'EMBED_LINKS', 'ATTACH_FILES'],
  'reaction-roles': [
    'MANAGE_ROLES',
    'VIEW_CHANNEL',
    'SEND_MESSAGES',
    'EMBED_LINKS',
    'READ_MESSAGE_HISTORY',
    'ADD_REACTIONS',
    'MANAGE_MESSAGES',
  ],
  onboarding: ['MANAGE_GUILD', 'MANAGE_ROLES'],
  welcome: ['MANAGE_ROLES', 'VIEW_CHANNEL', 'SEND_MESSAGES', 'ATTACH_FILES'],
};

/** The permissions integer (as Discord writes it, a decimal string) the features need together. */
export function botPermissionsFor(features: Iterable<BotFeature>): string {
  let bits = 0n;
  for (const feature of features) {
    for (const permission of FEATURE_PERMISSIONS[feature]) bits |= BOT_PERMISSION_BITS[permission];
  }
  return bits.toString();
}

/** The invite's permissions for a server that uses the base features only: 268561472. */
export const DEFAULT_BOT_PERMISSIONS = botPermissionsFor(BASE_BOT_FEATURES);

/**
 * The permissions a feature needs that `granted` (the bot's server-wide permissions integer)
 * lacks, as Discord names them; none with Administrator.
 */
export function missingBotPermissions(granted: string | bigint, feature: BotFeature): string[] {
  const bits = typeof granted === 'bigint' ? granted : BigInt(granted);
  if ((bits & BOT_PERMISSION_BITS.ADMINISTRATOR) !== 0n) return [];
  return FEATURE_PERMISSIONS[feature]
    .filter((permission) => (bits & BOT_PERMISSION_BITS[permission]) === 0n)
    .map((permission) => BOT_PERMISSION_LABELS[permission]);
}
