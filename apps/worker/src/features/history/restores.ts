import type { HistoryAction } from '@spacecadet/contract';
import { loadRestoresRequested, markRestored } from '@spacecadet/db/queries/history';
import type { HistoryRow } from '@spacecadet/db/schema';
import type { JobContext } from '../../jobs/types.ts';

/**
 * What the restore jobs (`color-roles.restore`, `personality-roles.restore`) share: every entry
 * of their action whose undo was asked (`claimUndo` with `restore`), oldest first, each marked
 * restored once it is back, so a rerun after a crash resumes with the ones not done.
 * Answers how many entries it restored.
 */
export async function restoreRequested(
  context: JobContext,
  action: HistoryAction,
  restoreOne: (entry: HistoryRow) => Promise<void>,
): Promise<number> {
  const { db } = context.deps;
  const guildId = context.payload.guild_id;
  const entries = await loadRestoresRequested(db, guildId, [action]);
  for (const entry of entries) {
    await restoreOne(entry);
    await markRestored(db, guildId, entry.id);
  }
  return entries.length;
}

/**
 * The job's context for a job it runs as a step (a reset, Generate Roles, a post) without the
 * request's history entry, so the step does not snapshot into it, and without its progress.
 */
export function stepContext(context: JobContext): JobContext {
  const { history_entry_id: _entry, ...payload } = context.payload;
  return { ...context, payload, progress: async () => {} };
}
