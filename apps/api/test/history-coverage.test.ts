import {
  HISTORY_ACTIONS,
  HISTORY_STATE_SUBJECTS,
  type HistoryAction,
  type RouteDef,
  type RouteName,
  routes,
} from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_RESTORERS, STATE_RESTORERS } from '../src/history/index.ts';

/**
 * The history is complete: every route that changes a server records an entry, and every kind
 * of change the contract calls undoable has the restorer its undo runs (without one, the undo
 * answers 409 "cannot be undone").
 */
const NAMES = Object.keys(routes) as RouteName[];
const ACTIONS = Object.keys(HISTORY_ACTIONS) as HistoryAction[];
const SNAPSHOT_ACTIONS = ACTIONS.filter((action) => HISTORY_ACTIONS[action].undo === 'snapshot');

/** Writes that record no entry, each with its reason. */
const UNRECORDED: Partial<Record<RouteName, string>> = {
  deleteGuildData: "it deletes the server's History with everything else; nothing is left to undo into",
};

/** Actions only the worker records, each with its reason. */
const RECORDED_BY_WORKER: Partial<Record<HistoryAction, string>> = {
  'leveling.decay': "the worker's daily XP decay records each run that took XP; no route decays XP",
};

describe('history coverage', () => {
  it('every guild route that is not a GET names the history action it records', () => {
    const writes = NAMES.filter((name) => routes[name].auth === 'guild' && routes[name].method !== 'GET');
    expect(writes.length).toBeGreaterThan(30);
    const unrecorded = writes.filter(
      (name) => (routes[name] as RouteDef).history === undefined && UNRECORDED[name] === undefined,
    );
    expect(unrecorded).toEqual([]);
  });

  it('every action of the contract is recorded by some route', () => {
    const named = new Set(NAMES.map((name) => (routes[name] as RouteDef).history));
    expect(
      ACTIONS.filter((action) => !named.has(action) && RECORDED_BY_WORKER[action] === undefined),
    ).toEqual([]);
  });

  it('every state subject kind has a state restorer', () => {
    expect(HISTORY_STATE_SUBJECTS.filter((kind) => STATE_RESTORERS[kind] === undefined)).toEqual([]);
  });

  it('every action undone from a snapshot has a snapshot restorer', () => {
    expect(SNAPSHOT_ACTIONS.length).toBeGreaterThan(0);
    expect(SNAPSHOT_ACTIONS.filter((action) => SNAPSHOT_RESTORERS[action] === undefined)).toEqual([]);
  });
});
