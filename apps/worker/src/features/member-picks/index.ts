import { applySavedPicks } from '../../interactions/member-lock.ts';
import type { JobContext } from '../../jobs/types.ts';
import type { WorkerFeature } from '../feature.ts';

/**
 * `member-picks.apply`: the picks members made on any panel while Discord (or the Discord proxy)
 * could not be reached were kept (`applyWaiting`); this job, queued with them, applies them
 * once Discord answers again, waiting and retrying until it does.
 */
async function applyMemberPicks(context: JobContext) {
  await context.progress(0);
  const applied = await applySavedPicks(context.deps, context.payload.guild_id);
  await context.progress(100);
  return {
    ok: true,
    summary: `Applied the saved picks of ${applied} member${applied === 1 ? '' : 's'}.`,
  };
}

export const memberPicksFeature = {
  name: 'member-picks',
  jobs: { 'member-picks.apply': applyMemberPicks },
} satisfies WorkerFeature;
