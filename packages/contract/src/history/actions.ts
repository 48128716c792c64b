/**
 * History: every change made through the API, per server. This file holds the shared facts: the
 * areas a change belongs to, every action an API route records (each guild write route names
 * its action in the route table, `RouteDef.history`), how each can be undone, and the subjects
 * (what a change touched), whose overlap tells an undo that something changed since.
 */
import { z } from 'zod';

export const HISTORY_AREAS = [
  'config',
  'reaction_roles',
  'role_menus',
  'color_roles',
  'personality_roles',
  'leveling',
  'welcome',
  'temp_roles',
] as const;
export const HistoryArea = z.enum(HISTORY_AREAS);
export type HistoryArea = z.infer<typeof HistoryArea>;

/** What the History page's filter calls each area. */
export const HISTORY_AREA_LABELS: Record<HistoryArea, string> = {
  config: 'Config',
  reaction_roles: 'Reaction roles',
  role_menus: 'Role menus',
  color_roles: 'Color roles',
  personality_roles: 'Personality roles',
  leveling: 'Leveling',
  welcome: 'Welcome',
  temp_roles: 'Temporary roles',
};

/**
 * How an entry is undone:
 * - `state`: a settings change. The entry keeps the state before and after; undo writes the
 *   state before back through the same code the route writes with (an undo is undoable too).
 * - `snapshot`: a destructive action (a reset, a prune, a deleted reward role). What it removed
 *   is kept for `HISTORY_SNAPSHOT_DAYS`; undo puts it back (recreating Discord roles by a job).
 * - `null`: recorded only (a post, a generate, a refresh: run it again instead).
 */
export type HistoryUndo = 'state' | 'snapshot' | null;

interface ActionSpec {
  area: HistoryArea;
  undo: HistoryUndo;
  /** The summary when the route gives none of its own. */
  label: string;
}

export const HISTORY_ACTIONS = {
  'config.update': { area: 'config', undo: 'state', label: 'Edited the raw config' },
  'config.setup_dismiss': { area: 'config', undo: null, label: 'Dismissed the setup checklist' },
  'config.setup_restore': { area: 'config', undo: null, label: 'Brought back the setup checklist' },

  'reaction_roles.update': { area: 'reaction_roles', undo: 'state', label: 'Edited the reaction-role lists' },
  'reaction_roles.channel': { area: 'reaction_roles', undo: 'state', label: 'Set the reaction-role channel' },
  'reaction_roles.post': { area: 'reaction_roles', undo: null, label: 'Posted the reaction-role panels' },

  'role_menus.create': { area: 'role_menus', undo: 'state', label: 'Created a role menu' },
  'role_menus.update': { area: 'role_menus', undo: 'state', label: 'Edited a role menu' },
  'role_menus.delete': { area: 'role_menus', undo: 'state', label: 'Deleted a role menu' },
  'role_menus.post': { area: 'role_menus', undo: null, label: 'Posted a role menu' },

  'color_roles.channel': { area: 'color_roles', undo: 'state', label: 'Set the color roles channel' },
  'color_roles.palette': { area: 'color_roles', undo: 'state', label: 'Edited the color palette' },
  'color_roles.generate': { area: 'color_roles', undo: null, label: 'Generated the color roles' },
  'color_roles.post': { area: 'color_roles', undo: null, label: 'Posted the color panel' },
  'color_roles.reset': { area: 'color_roles', undo: 'snapshot', label: 'Reset the color roles' },

  'personality_roles.init': { area: 'personality_roles', undo: null, label: 'Set up personality roles' },
  'personality_roles.channel': {
    area: 'personality_roles',
    undo: 'state',
    label: 'Set the personality roles channel',
  },
  'personality_roles.toggle': { area: 'personality_roles', undo: null, label: 'Turned a question on or off' },
  'personality_roles.delete_roles': {
    area: 'personality_roles',
    undo: null,
    label: "Deleted a question's roles",
  },
  'personality_roles.generate': {
    area: 'personality_roles',
    undo: null,
    label: 'Generated personality roles',
  },
  'personality_roles.post': { area: 'personality_roles', undo: null, label: 'Posted the personality panels' },
  'personality_roles.reset': {
    area: 'personality_roles',
    undo: 'snapshot',
    label: 'Reset personality roles',
  },
  'personality_roles.onboarding': {
    area: 'personality_roles',
    undo: 'state',
    label: 'Changed the Onboarding questions setting',
  },
  'personality_roles.question_create': {
    area: 'personality_roles',
    undo: 'state',
    label: 'Added a question',
  },
  'personality_roles.question_update': {
    area: 'personality_roles',
    undo: 'state',
    label: 'Edited a question',
  },
  'personality_roles.question_delete': {
    area: 'personality_roles',
    undo: 'state',
    label: 'Removed a question',
  },
  'personality_roles.question_order': {
    area: 'personality_roles',
    undo: 'state',
    label: 'Reordered the questions',
  },
  'personality_roles.import_onboarding': {
    area: 'personality_roles',
    undo: null,
    label: 'Imported the Onboarding questions',
  },
  'personality_roles.refresh': {
    area: 'personality_roles',
    undo: null,
    label: 'Refreshed personality roles',
  },

  'leveling.settings': { area: 'leveling', undo: 'state', label: 'Changed the leveling settings' },
  'leveling.reset_config': { area: 'leveling', undo: 'state', label: 'Reset the leveling settings' },
  'leveling.reset_all': { area: 'leveling', undo: 'snapshot', label: 'Reset leveling' },
  'leveling.sync_roles': { area: 'leveling', undo: null, label: 'Synced the reward roles' },
  'leveling.resend_overview': { area: 'leveling', undo: null, label: 'Resent the daily overview' },
  'leveling.prune': { area: 'leveling', undo: 'snapshot', label: 'Pruned the XP of leavers' },
  'leveling.import': { area: 'leveling', undo: 'snapshot', label: 'Imported XP' },
  'leveling.role_create': { area: 'leveling', undo: 'state', label: 'Added a reward role' },
  'leveling.role_update': { area: 'leveling', undo: 'state', label: 'Edited a reward role' },
  'leveling.role_delete': { area: 'leveling', undo: 'snapshot', label: 'Deleted a reward role' },
  'leveling.boost_create': { area: 'leveling', undo: 'state', label: 'Added a boost' },
  'leveling.boost_delete': { area: 'leveling', undo: 'state', label: 'Deleted a boost' },
  'leveling.member_xp': { area: 'leveling', undo: 'state', label: "Set a member's XP" },
  'leveling.member_reset': { area: 'leveling', undo: 'state', label: "Reset a member's XP" },
  'leveling.season_end': { area: 'leveling', undo: 'snapshot', label: 'Ended a season' },
  // Recorded by the worker's daily job for each run that took XP.
  'leveling.rank_card_background': {
    area: 'leveling',
    undo: null,
    label: 'Changed the rank card background',
  },
  'leveling.decay': { area: 'leveling', undo: null, label: 'Decayed the XP of inactive members' },

  'welcome.update': { area: 'welcome', undo: 'state', label: 'Edited the welcome settings' },

  // Recorded only: a grant is ended (not undone), an end given again. `temp_roles.end` is also
  // what the worker records when a temporary role expires or was removed by hand.
  'temp_roles.grant': { area: 'temp_roles', undo: null, label: 'Gave a temporary role' },
  'temp_roles.end': { area: 'temp_roles', undo: null, label: 'Ended a temporary role' },

  /** An undo is itself an entry: its area and subject are those of the entry it undid. */
  'history.undo': { area: 'config', undo: 'state', label: 'Undid a change' },
} as const satisfies Record<string, ActionSpec>;

export type HistoryAction = keyof typeof HISTORY_ACTIONS;
export const HistoryAction = z.enum(Object.keys(HISTORY_ACTIONS) as [HistoryAction, ...HistoryAction[]]);

/**
 * What a change touched, as a path of `:`-separated parts: `leveling` (all of leveling, a
 * reset), `leveling:settings`, `leveling:xp` (every member's XP), `leveling:xp:<user id>`. Two
 * subjects overlap when one is the other or lies under it: an undo of an entry is asked to be
 * confirmed when a newer entry's subject overlaps its own (`subjectsOverlap`).
 *
 * The kinds a `state` undo restores (`HISTORY_STATE_SUBJECTS`) each have one restorer in the
 * API; the parametric ones end with the id of the row (`role_menus:menu:<id>`).
 */
export const HISTORY_STATE_SUBJECTS = [
  'config',
  'reaction_roles:lists',
  'reaction_roles:channel',
  'role_menus:menu',
  'color_roles:palette',
  'color_roles:channel',
  'personality_roles:channel',
  'personality_roles:onboarding',
  'personality_roles:question',
  'personality_roles:order',
  'leveling:settings',
  'leveling:role',
  'leveling:boost',
  'leveling:xp',
  'welcome:settings',
] as const;
export type HistoryStateSubject = (typeof HISTORY_STATE_SUBJECTS)[number];

/** The kinds whose subject ends with a row id. */
const PARAMETRIC_SUBJECTS: ReadonlySet<HistoryStateSubject> = new Set([
  'role_menus:menu',
  'personality_roles:question',
  'leveling:role',
  'leveling:boost',
  'leveling:xp',
]);

/** `historySubject('leveling:xp', userId)` -> `leveling:xp:<user id>`. */
export function historySubject(kind: string, id?: string | number): string {
  return id === undefined ? kind : `${kind}:${id}`;
}

/** The state kind and row id of a subject a `state` undo restores, or null for other subjects. */
export function parseStateSubject(subject: string): { kind: HistoryStateSubject; id: string | null } | null {
  for (const kind of HISTORY_STATE_SUBJECTS) {
    if (subject === kind && !PARAMETRIC_SUBJECTS.has(kind)) return { kind, id: null };
    if (PARAMETRIC_SUBJECTS.has(kind) && subject.startsWith(`${kind}:`)) {
      const id = subject.slice(kind.length + 1);
      if (id !== '' && !id.includes(':')) return { kind, id };
    }
  }
  return null;
}

/** True when one subject is the other or lies under it (`leveling` and `leveling:xp:1`). */
export function subjectsOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}:`) || b.startsWith(`${a}:`);
}

/** Settings entries are kept this long. */
export const HISTORY_KEEP_DAYS = 90;
/** What a destructive action removed is kept this long for its undo (the entry stays). */
export const HISTORY_SNAPSHOT_DAYS = 7;
