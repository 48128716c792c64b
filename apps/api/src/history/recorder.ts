import { HISTORY_ACTIONS, type HistoryAction, type HistoryArea } from '@spacecadet/contract';
import {
  beginHistoryEntry,
  changedNothing,
  completeHistoryEntry,
  defaultHistorySubject,
  dropHistoryEntry,
  type HistoryNoted,
  historyCompletion,
} from '@spacecadet/db/queries/history';
import type { HistoryRow } from '@spacecadet/db/schema';
import type { AppServices } from '../services/container.ts';
import type { SessionContext } from '../services/sessions.ts';
import { resolveHistoryRefs } from './refs.ts';

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

function jobIdOf(result: unknown): string | null {
  if (typeof result === 'object' && result !== null && 'job_id' in result) {
    const jobId = (result as { job_id: unknown }).job_id;
    return typeof jobId === 'string' ? jobId : null;
  }
  return null;
}

export class HistoryRecorder implements HistoryNote {
  private completion: HistoryNoted = { undoKind: null };
  private finished: HistoryRow | null = null;

  private constructor(
    private readonly services: Pick<AppServices, 'db' | 'guildResources'>,
    readonly entryId: number,
    private readonly action: HistoryAction,
    private readonly guildId: string,
  ) {}

  static async begin(
    services: Pick<AppServices, 'db' | 'guildResources'>,
    action: HistoryAction,
    guildId: string,
    session: SessionContext,
  ): Promise<HistoryRecorder> {
    const id = await beginHistoryEntry(services.db, {
      guildId,
      actorId: session.user.id,
      actorName: session.user.username,
      actorAvatar: session.user.avatar,
      area: HISTORY_ACTIONS[action].area,
      action,
      subject: defaultHistorySubject(action),
    });
    return new HistoryRecorder(services, id, action, guildId);
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
    const completion = historyCompletion(this.action, {
      ...this.completion,
      jobId: this.completion.jobId ?? jobIdOf(result),
    });
    const refs = await resolveHistoryRefs(
      this.services.guildResources,
      this.guildId,
      completion.summary,
      completion.before,
      completion.after,
    );
    this.finished = await completeHistoryEntry(this.services.db, this.entryId, { ...completion, refs });
    return this.finished;
  }

  /**
   * The route succeeded: its entry is recorded, unless it saved a setting as it was (an undo is
   * recorded whatever it wrote back).
   */
  async complete(result?: unknown): Promise<void> {
    if (this.finished) return;
    if (this.action !== 'history.undo' && changedNothing(this.completion)) return this.drop();
    await this.finish(result);
  }

  /** The route failed: nothing changed, nothing to show. */
  async drop(): Promise<void> {
    if (!this.finished) await dropHistoryEntry(this.services.db, this.entryId);
  }
}
