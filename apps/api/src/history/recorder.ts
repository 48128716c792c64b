import { HISTORY_ACTIONS, type HistoryAction, type HistoryArea } from '@spacecadet/contract';
import { historyChanges } from '@spacecadet/core';
import type { Db } from '@spacecadet/db';
import {
  beginHistoryEntry,
  completeHistoryEntry,
  dropHistoryEntry,
  type HistoryCompletion,
} from '@spacecadet/db/queries/history';
import type { HistoryRow } from '@spacecadet/db/schema';
import type { SessionContext } from '../services/sessions.ts';

/**
 * What a recorded route tells its history entry (`RouteContext.history`). The entry is opened
 * before the handler runs (so the jobs it queues carry its id) and completed after it succeeded,
 * or deleted when it failed. A handler that says nothing still gets an entry: the action's label
 * as summary, not undoable.
 */
export interface HistoryNote {
  readonly entryId: number;
  /**
   * A settings change: the state of `subject` either side (JSON). The undo writes `before` back
   * through the subject's restorer (`restorers.ts`); null means the row did not exist (created)
   * or no longer does (deleted).
   */
  state(subject: string, before: unknown, after: unknown, summary?: string): void;
  /** A destructive action's snapshot, taken whole by the API before it removed anything. */
  snapshot(subject: string, snapshot: Record<string, unknown>, summary?: string): void;
  /**
   * A destructive action whose job takes the snapshot (the job finds this entry by the
   * `history_entry_id` of its payload and marks it ready).
   */
  snapshotByJob(subject: string, summary?: string): void;
  /** The subject, summary, area or undone entry of an entry that is not one of the above. */
  describe(fields: { subject?: string; summary?: string; area?: HistoryArea; undoOf?: number }): void;
  /** Completes the entry now (to answer it); the route's end then leaves it as is. */
  finish(result?: unknown): Promise<HistoryRow>;
}

/** The subject of an action that names none: `<area>:<action>` (`color_roles:generate`). */
export function defaultSubject(action: HistoryAction): string {
  const spec = HISTORY_ACTIONS[action];
  return `${spec.area}:${action.slice(action.indexOf('.') + 1)}`;
}

function jobIdOf(result: unknown): string | null {
  if (typeof result === 'object' && result !== null && 'job_id' in result) {
    const jobId = (result as { job_id: unknown }).job_id;
    return typeof jobId === 'string' ? jobId : null;
  }
  return null;
}

export class HistoryRecorder implements HistoryNote {
  private completion: Omit<HistoryCompletion, 'summary'> & { summary?: string } = { undoKind: null };
  private finished: HistoryRow | null = null;

  private constructor(
    private readonly db: Db,
    readonly entryId: number,
    private readonly action: HistoryAction,
  ) {}

  static async begin(
    db: Db,
    action: HistoryAction,
    guildId: string,
    session: SessionContext,
  ): Promise<HistoryRecorder> {
    const id = await beginHistoryEntry(db, {
      guildId,
      actorId: session.user.id,
      actorName: session.user.username,
      actorAvatar: session.user.avatar,
      area: HISTORY_ACTIONS[action].area,
      action,
      subject: defaultSubject(action),
    });
    return new HistoryRecorder(db, id, action);
  }

  state(subject: string, before: unknown, after: unknown, summary?: string): void {
    this.completion = {
      ...this.completion,
      subject,
      undoKind: 'state',
      before,
      after,
      ...(summary === undefined ? {} : { summary }),
    };
  }

  snapshot(subject: string, snapshot: Record<string, unknown>, summary?: string): void {
    this.completion = {
      ...this.completion,
      subject,
      undoKind: 'snapshot',
      snapshot,
      ...(summary === undefined ? {} : { summary }),
    };
  }

  snapshotByJob(subject: string, summary?: string): void {
    this.completion = {
      ...this.completion,
      subject,
      undoKind: 'snapshot',
      ...(summary === undefined ? {} : { summary }),
    };
  }

  describe(fields: { subject?: string; summary?: string; area?: HistoryArea; undoOf?: number }): void {
    this.completion = {
      ...this.completion,
      ...(fields.subject === undefined ? {} : { subject: fields.subject }),
      ...(fields.summary === undefined ? {} : { summary: fields.summary }),
      ...(fields.area === undefined ? {} : { area: fields.area }),
      ...(fields.undoOf === undefined ? {} : { undoOf: fields.undoOf }),
    };
  }

  async finish(result?: unknown): Promise<HistoryRow> {
    if (this.finished) return this.finished;
    const spec = HISTORY_ACTIONS[this.action];
    // An action the contract does not let be undone stays so, whatever the handler noted.
    const undoKind = spec.undo === null ? null : this.completion.undoKind;
    this.finished = await completeHistoryEntry(this.db, this.entryId, {
      ...this.completion,
      undoKind,
      summary: this.completion.summary ?? this.defaultSummary(spec.label),
      jobId: this.completion.jobId ?? jobIdOf(result),
    });
    return this.finished;
  }

  /** The label, and for a settings change the fields it changed: "Edited a role menu: title, color". */
  private defaultSummary(label: string): string {
    if (this.completion.undoKind !== 'state') return label;
    const fields = historyChanges(this.completion.before, this.completion.after).map(
      (change) => change.field,
    );
    return fields.length > 0 && fields.length <= 4
      ? `${label}: ${fields.join(', ').replaceAll('_', ' ')}`
      : label;
  }

  /** The route failed: nothing changed, nothing to show. */
  async drop(): Promise<void> {
    if (!this.finished) await dropHistoryEntry(this.db, this.entryId);
  }
}
