/**
 * What the bot needs in a channel an admin picks, and Discord's way of computing what it has
 * there. The API checks it when a channel is saved; the worker names what is missing when
 * Discord refuses a post. One list, so the page and the job result say the same thing.
 */

/** Discord's permission bits the product's channels need, with the names Discord's client shows. */
export const CHANNEL_PERMISSION_BITS = {
  'View Channel': 1n << 10n,
  'Send Messages': 1n << 11n,
  'Embed Links': 1n << 14n,
  'Read Message History': 1n << 16n,
  'Add Reactions': 1n << 6n,
  'Manage Messages': 1n << 13n,
  'Attach Files': 1n << 15n,
} as const;
export type ChannelPermissionName = keyof typeof CHANNEL_PERMISSION_BITS;

const ADMINISTRATOR = 1n << 3n;

/**
 * Each channel the product posts in and what it needs there. The panels and question messages
 * are embeds; the worker reads recent messages of the panel, question and overview channels to
 * find its own (so a retried job edits instead of posting twice); level-ups are plain text.
 */
export const CHANNEL_USES = {
  color_panel: ['View Channel', 'Send Messages', 'Embed Links', 'Read Message History'],
  personality_messages: ['View Channel', 'Send Messages', 'Embed Links', 'Read Message History'],
  level_up_announcements: ['View Channel', 'Send Messages'],
  daily_overview: ['View Channel', 'Send Messages', 'Read Message History'],
  /** Welcome and goodbye messages: plain text mentioning the member. */
  welcome_messages: ['View Channel', 'Send Messages'],
  /** A welcome with the welcome card attached (a PNG file). */
  welcome_cards: ['View Channel', 'Send Messages', 'Attach Files'],
  /** Reaction panels: the bot reacts with each emoji, and removes members' reactions (a swapped
   * color, a removed row), which takes Manage Messages. */
  reaction_panel: [
    'View Channel',
    'Send Messages',
    'Embed Links',
    'Read Message History',
    'Add Reactions',
    'Manage Messages',
  ],
} as const satisfies Record<string, readonly ChannelPermissionName[]>;
export type ChannelUse = keyof typeof CHANNEL_USES;

/** Body fields naming a channel, and what the bot does there (checked when saved). */
export type ChannelUseSpec = Readonly<Record<string, ChannelUse>>;

export interface PermissionOverwriteLike {
  id: string;
  /** 0 role, 1 member */
  type: number;
  allow: string;
  deny: string;
}

/**
 * A member's permissions in a channel as Discord computes them: the guild roles' bits
 * (Administrator: everything), then the @everyone overwrite, the member's roles' overwrites
 * combined, the member's own overwrite; without View Channel, nothing.
 */
export function channelPermissionBits(input: {
  guildId: string;
  userId: string;
  /** Every role of the guild, @everyone (id = guild id) included. */
  roles: ReadonlyArray<{ id: string; permissions: string }>;
  memberRoleIds: readonly string[];
  overwrites: readonly PermissionOverwriteLike[];
}): bigint {
  const held = new Set([input.guildId, ...input.memberRoleIds]);
  let bits = 0n;
  for (const role of input.roles) if (held.has(role.id)) bits |= BigInt(role.permissions);
  if ((bits & ADMINISTRATOR) !== 0n) return ~0n;
  const everyone = input.overwrites.find((o) => o.id === input.guildId);
  if (everyone) bits = (bits & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of input.overwrites) {
    if (o.type === 0 && o.id !== input.guildId && held.has(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  }
  bits = (bits & ~deny) | allow;
  const own = input.overwrites.find((o) => o.type === 1 && o.id === input.userId);
  if (own) bits = (bits & ~BigInt(own.deny)) | BigInt(own.allow);
  if ((bits & CHANNEL_PERMISSION_BITS['View Channel']) === 0n) return 0n;
  // Discord's implicit denial: no Send Messages, no embeds either.
  if ((bits & CHANNEL_PERMISSION_BITS['Send Messages']) === 0n)
    bits &= ~CHANNEL_PERMISSION_BITS['Embed Links'];
  return bits;
}

/** The permissions `use` needs that `bits` lacks, in the order of CHANNEL_USES. */
export function missingChannelPermissions(bits: bigint, use: ChannelUse): ChannelPermissionName[] {
  return CHANNEL_USES[use].filter((name) => (bits & CHANNEL_PERMISSION_BITS[name]) === 0n);
}

/** "Missing permission Send Messages in #roles" (or "permissions A, B"). */
export function missingPermissionText(missing: readonly ChannelPermissionName[], channel: string): string {
  return `Missing permission${missing.length === 1 ? '' : 's'} ${missing.join(', ')} in ${channel}`;
}
