import { guildsWithPostedMenus } from '@spacecadet/db/queries/role-menus';
import type { WorkerDeps } from '../../deps.ts';
import { ensureGuildSchedule, type FeatureSchedule, removeGuildSchedule } from '../../jobs/schedules.ts';

/** How often the safety net puts back what went missing of every posted panel. */
export const ROLE_MENUS_REPAIR_INTERVAL_MS = 5 * 60_000;

/** The repair every 5 minutes of every guild with a posted menu (deletes no worker heard). */
export const roleMenusRepairSchedule: FeatureSchedule = {
  job: 'role-menus.repair',
  repeat: { everyMs: ROLE_MENUS_REPAIR_INTERVAL_MS },
  guilds: (deps, shards) => guildsWithPostedMenus(deps.db, shards),
};

/** A job that left the guild with posted menus (or none) makes its scheduler exist (or not). */
export async function matchRepairSchedule(deps: WorkerDeps, guildId: string, posted: boolean): Promise<void> {
  if (posted) await ensureGuildSchedule(deps, roleMenusRepairSchedule, guildId);
  else await removeGuildSchedule(deps, roleMenusRepairSchedule, guildId);
}
