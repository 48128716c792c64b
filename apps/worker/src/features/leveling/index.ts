import type { WorkerFeature } from '../feature.ts';
import { applyDueRewards } from './apply-rewards.ts';
import { leaderboardCommand, rankCommand } from './commands.ts';
import { decaySchedule, decayXp, recomputeLevels } from './curve-jobs.ts';
import { leaverEvents } from './members.ts';
import { postScheduledOverview, resendOverview } from './overview.ts';
import { dailyOverviewSchedule } from './overview-schedule.ts';
import { pruneLeavers } from './prune.ts';
import { rankColorCommand } from './rank-color.ts';
import { endDueSeason, seasonEndSchedule } from './season-schedule.ts';
import { syncLevelingRoles } from './sync-roles.ts';
import { flushXpOnShutdown, xpEvents } from './xp.ts';
import { xpCommand } from './xp-command.ts';

/**
 * Leveling: members earn XP by chatting (counted in Redis, written to Postgres within a
 * second, flushed on shutdown), level-ups are announced and rewarded; Sync Roles creates the reward roles and gives members the rewards of their level,
 * the daily overview posts yesterday's top earners at midnight UTC (Resend Overview now),
 * Prune leavers deletes the XP of members who left, a curve change recomputes every level
 * (and rewards), inactive members' XP decays daily where the server set decay, a season ends by
 * itself where the server set a schedule, `/rank` and `/leaderboard` answer
 * members, and `/rank-color` sets a member's own card accent. Leavers are marked as they leave, so the prune knows who left.
 */
export const levelingFeature = {
  name: 'leveling',
  jobs: {
    'leveling.sync-roles': syncLevelingRoles,
    'leveling.resend-overview': resendOverview,
    'leveling.daily-overview': postScheduledOverview,
    'leveling.prune-leavers': pruneLeavers,
    'leveling.apply-rewards': applyDueRewards,
    'leveling.recompute-levels': recomputeLevels,
    'leveling.decay': decayXp,
    'leveling.season-end': endDueSeason,
  },
  commands: [rankCommand, leaderboardCommand, xpCommand, rankColorCommand],
  events: [...leaverEvents, ...xpEvents],
  schedules: [dailyOverviewSchedule, decaySchedule, seasonEndSchedule],
  shutdown: flushXpOnShutdown,
} satisfies WorkerFeature;
