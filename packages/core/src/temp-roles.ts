/**
 * Temporary roles' shared words: the durations an admin types (`/temprole add … 2h`), how a
 * duration and an end read in History and in the bot's answers.
 */
import { TEMP_ROLE_MAX_SECONDS, TEMP_ROLE_MIN_SECONDS } from '@spacecadet/contract';

const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  m: 60,
  h: 3600,
  d: 86_400,
  w: 7 * 86_400,
};

export const DURATION_HINT = 'Write a duration like 10m, 2h, 7d or 1w2d (from 1 minute to 365 days).';

/**
 * A typed duration in seconds: one or more `<number><unit>` parts (s, m, h, d, w; `1h30m`), or a
 * plain number of minutes. Null when it does not parse; bounds are the caller's
 * (`tempRoleDurationRefusal`).
 */
export function parseDuration(text: string): number | null {
  const input = text.trim().toLowerCase().replace(/\s+/g, '');
  if (input === '') return null;
  if (/^\d{1,7}$/.test(input)) return Number(input) * 60;
  const parts = [...input.matchAll(/(\d{1,7})([smhdw])/g)];
  if (parts.map((part) => part[0]).join('') !== input) return null;
  let seconds = 0;
  for (const [, amount, unit] of parts) seconds += Number(amount) * (UNIT_SECONDS[unit ?? ''] ?? 0);
  return seconds;
}

/** Why a temporary role cannot last this long, or null when it can. */
export function tempRoleDurationRefusal(seconds: number | null): string | null {
  if (seconds === null) return `That is not a duration. ${DURATION_HINT}`;
  if (seconds < TEMP_ROLE_MIN_SECONDS) return `A temporary role lasts at least a minute. ${DURATION_HINT}`;
  if (seconds > TEMP_ROLE_MAX_SECONDS) return `A temporary role lasts at most 365 days. ${DURATION_HINT}`;
  return null;
}

/** "1 day 2 hours", "10 minutes", "45 seconds": the two largest units, as History says it. */
export function formatDuration(seconds: number): string {
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ];
  const parts: string[] = [];
  let rest = Math.max(0, Math.round(seconds));
  for (const [name, size] of units) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0) parts.push(`${amount} ${name}${amount === 1 ? '' : 's'}`);
    if (parts.length === 2) break;
  }
  return parts.length === 0 ? '0 seconds' : parts.join(' ');
}

/** How a temporary role ended, as `temp_roles.end_reason` stores it. */
export type TempRoleEndReason =
  | 'expired'
  | 'ended_early'
  | 'removed_by_hand'
  /** It expired while the member was not in the server; taken back if they return holding it. */
  | 'expired_absent'
  /** It could not be given (the member left, the role went, the bot may not give it). */
  | 'not_given';

/** The History line of a temporary role's end. */
export function tempRoleEndSummary(reason: TempRoleEndReason, userId: string, roleId: string): string {
  const who = `<@${userId}>`;
  const role = `<@&${roleId}>`;
  switch (reason) {
    case 'expired':
      return `The temporary role ${role} of ${who} expired and was taken back`;
    case 'ended_early':
      return `Ended the temporary role ${role} of ${who} early and took it back`;
    case 'removed_by_hand':
      return `The temporary role ${role} of ${who} was removed by hand before it expired; it is left alone`;
    case 'expired_absent':
      return `The temporary role ${role} of ${who} expired while they were not in the server; it is taken back if they return with it`;
    case 'not_given':
      return `The temporary role ${role} could not be given to ${who} (not a member, or the role cannot be given)`;
  }
}

/** The History line of a grant: "Gave <@&role> to <@user> for 2 hours". */
export function tempRoleGrantSummary(userId: string, roleId: string, seconds: number): string {
  return `Gave <@&${roleId}> to <@${userId}> for ${formatDuration(seconds)}`;
}
