import type { HistoryAction } from '@spacecadet/contract';
import { loadRestoresRequested, markRestored, releaseUndo } from '@spacecadet/db/queries/history';
import type { HistoryRow } from '@spacecadet/db/schema';
import { type JobContext, JobFailure } from '../../jobs/types.ts';

/**
 * What the restore jobs (`color-roles.restore`, `personality-roles.restore`) share: every entry
 * of their action whose undo was asked (`claimUndo` with `restore`), oldest first, each marked
 * restored once it is back, so a rerun after a crash resumes with the ones not done.
 *
 * An entry a retry cannot restore (a `JobFailure`: the bot lacks a permission, the snapshot is
 * unreadable) does not hold up the others: its undo is given back (the entry can be undone
 * again once fixed) and a warning says why. When no entry could be restored, the job fails
 * with the first one's reason. Answers how many entries it restored.
 */
export async function restoreRequested(
  context: JobContext,
  action: HistoryAction,
  warnings: string[],
  restoreOne: (entry: HistoryRow) => Promise<void>,
): Promise<number> {
  const { db } = context.deps;
  const guildId = context.payload.guild_id;
  const entries = await loadRestoresRequested(db, guildId, [action]);
  let restored = 0;
  let failure: JobFailure | null = null;
  for (const entry of entries) {
    try {
      await restoreOne(entry);
    } catch (error) {
      if (!(error instanceof JobFailure)) throw error;
      failure ??= error;
      if (entry.undoneBy !== null) await releaseUndo(db, guildId, entry.id, entry.undoneBy);
      warnings.push(`"${entry.summary}" was not undone: ${error.detail} Undo it again once that is fixed.`);
      continue;
    }
    await markRestored(db, guildId, entry.id);
    restored += 1;
  }
  if (failure && restored === 0) throw failure;
  return restored;
}

/**
 * The job's context for a job it runs as a step (a reset, Generate Roles, a post) without the
 * request's history entry, so the step does not snapshot into it, and without its progress.
 */
export function stepContext(context: JobContext): JobContext {
  const { history_entry_id: _entry, ...payload } = context.payload;
  return { ...context, payload, progress: async () => {} };
}
