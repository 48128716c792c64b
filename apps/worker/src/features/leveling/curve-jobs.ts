import type { JobResult } from '@spacecadet/contract';
import { recordHistoryEntry } from '@spacecadet/db/queries/history';
import {
  decayGuilds,
  decayGuildXp,
  loadLevelingSettings,
  recomputeLevelsPage,
  type StoredLevelingSettings,
} from '@spacecadet/db/queries/leveling';
import type { WorkerDeps } from '../../deps.ts';
import type { FeatureSchedule } from '../../jobs/schedules.ts';
import { ensureGuildSchedule, removeGuildSchedule } from '../../jobs/schedules.ts';
import type { JobContext } from '../../jobs/types.ts';
import { errorFields } from '../../logger.ts';
import { botActor } from '../history/record-command.ts';
import { applyDueRewards } from './apply-rewards.ts';

/**
 * The server's own curve and decay: `leveling.recompute-levels` after an admin changed the
 * level curve, and `leveling.decay`, daily, for servers whose XP decays.
 */

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/**
 * `leveling.recompute-levels`: every member's level under the server's curve now, a page of
 * members per transaction; a member whose level changed has their rewards marked due, and the
 * same run then brings reward roles in line (`leveling.apply-rewards`). Nothing is announced.
 * Idempotent: a rerun (or a run killed halfway and retried) finds the levels already right and
 * applies only the marks left.
 */
export async function recomputeLevels(context: JobContext): Promise<JobResult> {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const { levelCurve } = await loadLevelingSettings(deps.db, guildId);
  let after: string | null = null;
  let read = 0;
  let changed = 0;
  do {
    const page = await recomputeLevelsPage(deps.db, guildId, levelCurve, after);
    read += page.read;
    changed += page.changed;
    after = page.next;
  } while (after !== null);
  const rewards = await applyDueRewards(context);
  const levels =
    changed === 0
      ? `Levels checked for ${plural(read, 'member')}: every level already follows the curve.`
      : `Levels recomputed for ${plural(read, 'member')}: ${plural(changed, 'member')} changed level.`;
  return { ...rewards, summary: `${levels} ${rewards.summary}`.trim() };
}

/** The daily XP decay, at 00:30 UTC, for every server with leveling on and decay set. */
export const decaySchedule: FeatureSchedule = {
  job: 'leveling.decay',
  repeat: { pattern: '30 0 * * *' },
  guilds: (deps, shards) => decayGuilds(deps.db, shards),
};

/** Makes the guild's decay scheduler exist, or not, as these settings want. */
export async function matchDecaySchedule(
  deps: WorkerDeps,
  guildId: string,
  settings: StoredLevelingSettings,
): Promise<void> {
  if (settings.enabled && settings.xpDecay) await ensureGuildSchedule(deps, decaySchedule, guildId);
  else await removeGuildSchedule(deps, decaySchedule, guildId);
}

/**
 * `leveling.decay`: the week's decay of the server's inactive members in one statement
 * (db `decayGuildXp`: once a week per member, so a second run the same day takes nothing).
 * A run that took XP is recorded in History; members it let drop a level get their reward
 * roles brought in line.
 */
export async function decayXp(context: JobContext): Promise<JobResult> {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  const settings = await loadLevelingSettings(deps.db, guildId);
  await matchDecaySchedule(deps, guildId, settings);
  if (!settings.enabled || !settings.xpDecay) {
    return { ok: true, summary: 'XP decay is off: nothing taken.' };
  }
  const run = await decayGuildXp(deps.db, guildId, settings.levelCurve, settings.xpDecay);
  if (run.members === 0) return { ok: true, summary: 'No inactive member was due to decay.' };
  const summary =
    `Decayed ${plural(run.xpTaken, 'XP').replace(/XPs$/, 'XP')} from ${plural(run.members, 'inactive member')}` +
    ` (${settings.xpDecay.percent_per_week}% a week after ${plural(settings.xpDecay.after_inactive_days, 'day')})` +
    (run.levelsDropped > 0 ? `; ${plural(run.levelsDropped, 'member')} dropped a level.` : '.');
  await recordDecay(deps, guildId, summary);
  if (run.levelsDropped === 0) return { ok: true, summary };
  const rewards = await applyDueRewards(context);
  return { ...rewards, summary: `${summary} ${rewards.summary}`.trim() };
}

/** Records the run in History (recorded only). The XP is taken already: a failed write is logged. */
async function recordDecay(deps: WorkerDeps, guildId: string, summary: string): Promise<void> {
  try {
    await recordHistoryEntry(deps.db, {
      guildId,
      actor: botActor(deps),
      action: 'leveling.decay',
      noted: { undoKind: null, summary },
    });
  } catch (error) {
    deps.logger.warn({ ...errorFields(error), guildId }, 'XP decay not recorded in History');
  }
}
