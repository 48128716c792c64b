import type { SnapshotRestorers, StateRestorers } from './restorers.ts';

/**
 * Every restorer, gathered from the features' files. A `state` subject kind or `snapshot` action
 * without one answers 409 "cannot be undone" (apps/api/test/history-coverage.test.ts holds the
 * tables complete).
 */
export const STATE_RESTORERS: StateRestorers = {};
export const SNAPSHOT_RESTORERS: SnapshotRestorers = {};
