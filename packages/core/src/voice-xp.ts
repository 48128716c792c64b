/**
 * Voice XP's rule: who earns a minute in voice, and how much. A member earns for each full
 * minute they spend in a voice channel, as the worker saw it:
 * - in a channel that is not the server's AFK channel nor one of its no-XP channels,
 * - not muted nor deafened, by themselves or by a moderator (a member a moderator muted is not
 *   taking part; stage audience members, `suppress`, count as muted too),
 * - not a bot, holding no no-XP role,
 * - with at least `voiceMinMembers` people (bots not counted; muted and deafened ones counted:
 *   they are there) in the channel at the minute's end, themselves included.
 * "Full" means their own state (channel, mutes) did not change during the minute: a member
 * who joins or unmutes at 12:00:20 first earns for 12:01–12:02. Minutes are UTC wall-clock
 * minutes, so every process counts the same ones.
 */
import { xpForMessage } from './leveling.ts';

export const VOICE_MINUTE_MS = 60_000;

/** A member in a voice channel, as the worker tracks them. */
export interface VoiceSeat {
  userId: string;
  channelId: string;
  bot: boolean;
  /** Self-muted, server-muted or suppressed (stage audience). */
  muted: boolean;
  /** Self-deafened or server-deafened. */
  deafened: boolean;
  roleIds: readonly string[];
  /** When their channel or mutes last changed, or when the worker first saw them (ms). */
  since: number;
}

export interface VoiceXpSettings {
  enabled: boolean;
  voiceXpPerMinute: number;
  voiceMinMembers: number;
  noXpChannels: readonly string[];
  noXpRoles: readonly string[];
}

/** The UTC minute that ends at `minuteEnd` (ms, a multiple of a minute) starts a minute before. */
export function minuteEndAtOrBefore(time: number): number {
  return Math.floor(time / VOICE_MINUTE_MS) * VOICE_MINUTE_MS;
}

/** The members who earn the minute ending at `minuteEnd`, under the rule above. */
export function voiceMinuteEarners<Seat extends VoiceSeat>(
  settings: VoiceXpSettings,
  afkChannelId: string | null,
  seats: readonly Seat[],
  minuteEnd: number,
): Seat[] {
  if (!settings.enabled || settings.voiceXpPerMinute <= 0) return [];
  const people = new Map<string, number>();
  for (const seat of seats) {
    if (!seat.bot) people.set(seat.channelId, (people.get(seat.channelId) ?? 0) + 1);
  }
  const noXpRoles = new Set(settings.noXpRoles);
  return seats.filter(
    (seat) =>
      !seat.bot &&
      !seat.muted &&
      !seat.deafened &&
      seat.since <= minuteEnd - VOICE_MINUTE_MS &&
      seat.channelId !== afkChannelId &&
      !settings.noXpChannels.includes(seat.channelId) &&
      !seat.roleIds.some((id) => noXpRoles.has(id)) &&
      (people.get(seat.channelId) ?? 0) >= Math.max(1, settings.voiceMinMembers),
  );
}

/** A minute's XP: `round(voice_xp_per_minute × multiplier × boost)`, as a message's. */
export function voiceMinuteXp(input: { perMinute: number; multiplier: number; boost: number }): number {
  return xpForMessage({ xpPerMessage: input.perMinute, multiplier: input.multiplier, boost: input.boost });
}
