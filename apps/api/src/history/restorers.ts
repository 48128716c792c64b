import type { HistoryAction, HistoryStateSubject } from '@spacecadet/contract';
import type { HistoryRow } from '@spacecadet/db/schema';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JobRequester } from '../services/jobs.ts';

/**
 * How each kind of change is undone. One restorer per `state` subject kind (the contract's
 * `HISTORY_STATE_SUBJECTS`) and one per `snapshot` action, each calling the same code the routes
 * of its feature write with (`services/<feature>.ts`; history never imports routes), so an undo
 * is checked, stored and followed up (Sync Roles, a panel update) as the change it reverses was.
 */
export interface UndoContext {
  app: FastifyInstance;
  guildId: string;
  /** The undo request's user, request id and history entry (its jobs carry them). */
  requester: JobRequester;
  request: FastifyRequest;
}

/** What an undo did: a job id when a job brings Discord back in line (the route answers 202). */
export interface UndoOutcome {
  jobId?: string | null;
  /**
   * The stored part is back but the job that follows it could not be queued (the queue is
   * down): what the admin does instead, added to the undo's summary ("run Sync Roles ...").
   */
  catchUp?: string;
}

export interface StateRestorer {
  /** The subject's state now, in the shape the route records (`HistoryNote.state`). */
  read(context: UndoContext, id: string | null): Promise<unknown>;
  /** Writes a recorded state back (null: the row is to not exist). */
  restore(context: UndoContext, id: string | null, state: unknown): Promise<UndoOutcome>;
}

export interface SnapshotRestorer {
  /**
   * A job does the restore and marks the entry restored (`loadRestoresRequested`,
   * `markRestored`): the undo route asks for it when it claims the entry. Without it, `restore`
   * puts everything back itself before the route answers.
   */
  byJob?: boolean;
  /** Puts back what the entry's action removed, from its snapshot (or queues the job that does). */
  restore(context: UndoContext, entry: HistoryRow): Promise<UndoOutcome>;
}

export type StateRestorers = Partial<Record<HistoryStateSubject, StateRestorer>>;
export type SnapshotRestorers = Partial<Record<HistoryAction, SnapshotRestorer>>;

/** One area's restorers (a `restore-<area>.ts` file), merged in `index.ts`. */
export interface AreaRestorers {
  state: StateRestorers;
  snapshot: SnapshotRestorers;
}
