/** Boosts in words and form values: the kinds offered, target and expiry labels, the expiry field's values. */
import type { Boost, GuildRole, MemberSummary } from '@spacecadet/contract';
import { boostTarget } from '@spacecadet/core';

export const BOOST_KINDS = [
  { value: 'server', label: 'Everyone (server-wide)' },
  { value: 'user', label: 'One member' },
  { value: 'role', label: 'Members with a role' },
  { value: 'channel', label: 'Messages in a channel' },
] as const;
export type BoostKind = (typeof BOOST_KINDS)[number]['value'];

export const DEFAULT_MULTIPLIER = '2';
export const PRUNE_FAILURE = 'Failed to start Prune leavers';
export const ADD_CHANNEL_BOOST_FAILURE = 'Failed to add channel boost';
/** How boosts combine (core's `activeBoostMultiplier`), said once above the list. */
export const BOOST_RULE =
  "A message earns with the member's largest boost (server-wide, their own or one of their roles') times its channel's boost.";

/** The boost's target in words: the member's or role's name when known, else its id. */
export function boostTargetLabel(
  boost: Pick<Boost, 'user_id'>,
  names: {
    member?: Pick<MemberSummary, 'display_name'> | undefined;
    role?: Pick<GuildRole, 'name'> | undefined;
    channel?: { name: string } | undefined;
  } = {},
): string {
  const target = boostTarget(boost.user_id);
  if (target.kind === 'server') return 'Server-wide';
  if (target.kind === 'user') return names.member ? names.member.display_name : `User ${target.userId}`;
  if (target.kind === 'channel') {
    return names.channel ? `Channel #${names.channel.name}` : `Channel ${target.channelId}`;
  }
  return names.role ? `Role ${names.role.name}` : `Role ${target.roleId}`;
}

export function isBoostExpired(boost: Pick<Boost, 'expires_at'>, now: number = Date.now()): boolean {
  return boost.expires_at !== null && new Date(boost.expires_at).getTime() <= now;
}

export function boostExpiryLabel(boost: Pick<Boost, 'expires_at'>, now: number = Date.now()): string {
  if (!boost.expires_at) return 'Permanent';
  const when = new Date(boost.expires_at).toLocaleString();
  return isBoostExpired(boost, now) ? `Expired ${when}` : `Expires ${when}`;
}

/** `datetime-local` gives local time without a zone; the API wants an ISO timestamp or null. */
export function isoOrNull(local: string): string | null {
  if (local.trim() === '') return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Now as a `datetime-local` value (local time, minutes), the earliest expiry the form offers. */
export function localNow(): string {
  const now = new Date();
  now.setSeconds(0, 0);
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
