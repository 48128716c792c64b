import type { EphemeralAnswer } from './respond.ts';

/**
 * A member's picks hash (`memberPicksKey`) as the lock holder reads it: the picks waiting
 * (`p:<interaction id>`), per group the newest click applied (`d:`), its answer (`a:`) and the
 * newest pick saved while Discord could not be reached (`s:`).
 */

/** One recorded pick: the click's interaction id (a snowflake) and what the feature stored. */
export interface MemberPick<P> {
  id: string;
  pick: P;
}

/** What a group's answer is recorded as: the answer, or that applying it failed. */
export type RecordedAnswer = EphemeralAnswer | { error: string };

export interface PicksState {
  /** The waiting picks by group, oldest first. */
  pending: Map<string, MemberPick<unknown>[]>;
  /** Every waiting field, including any that could not be read (removed unapplied). */
  fields: string[];
  /** Per group: the newest click applied. */
  doneIds: Map<string, string>;
  /** Per group: the recorded answer (JSON). */
  answers: Map<string, string>;
  /** Per group: the newest click saved while Discord could not be reached (not applied yet). */
  savedIds: Map<string, string>;
  /** How many waiting fields are not saved for later: what a click's holder has to apply. */
  unsaved: number;
}

/** The member's hash read: waiting picks by group (oldest first), what was applied and answered. */
export function readState(hash: Record<string, string>): PicksState {
  const state: PicksState = {
    pending: new Map(),
    fields: [],
    doneIds: new Map(),
    answers: new Map(),
    savedIds: new Map(),
    unsaved: 0,
  };
  for (const [field, value] of Object.entries(hash)) {
    const kind = field.slice(0, 2);
    const rest = field.slice(2);
    if (kind === 'd:') state.doneIds.set(rest, value);
    else if (kind === 'a:') state.answers.set(rest, value);
    else if (kind === 's:') state.savedIds.set(rest, value);
    else if (kind === 'p:') {
      state.fields.push(field);
      try {
        const { group, pick } = JSON.parse(value) as { group: unknown; pick: unknown };
        if (/^\d{1,20}$/.test(rest) && typeof group === 'string') {
          state.pending.set(group, [...(state.pending.get(group) ?? []), { id: rest, pick }]);
        }
      } catch {
        // Not JSON: removed unapplied.
      }
    }
  }
  for (const picks of state.pending.values()) picks.sort((a, b) => compareIds(a.id, b.id));
  state.unsaved = state.fields.length;
  for (const [group, picks] of state.pending) {
    const savedId = state.savedIds.get(group);
    if (savedId !== undefined)
      state.unsaved -= picks.filter((pick) => compareIds(pick.id, savedId) <= 0).length;
  }
  return state;
}

/** Two interaction ids (snowflakes) in Discord's order. */
export function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A group's recorded answer; null when absent or not of that shape. */
export function parseAnswer(stored: string | undefined): RecordedAnswer | null {
  if (stored === undefined) return null;
  try {
    const parsed = JSON.parse(stored) as RecordedAnswer | null;
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}
