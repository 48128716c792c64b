import type { WorkerFeature } from '../feature.ts';
import { leaderboardCommand, rankCommand } from './commands.ts';
import { leaverEvents } from './members.ts';
import { postScheduledOverview, resendOverview } from './overview.ts';
import { dailyOverviewSchedule } from './overview-schedule.ts';
import { pruneLeavers } from './prune.ts';
import { syncLevelingRoles } from './sync-roles.ts';

/**
 * Leveling: Sync Roles creates the reward roles and gives members the rewards of their level,
 * the daily overview posts yesterday's top earners at midnight UTC (Resend Overview now),
 * Prune leavers deletes the XP of members who left, and `/rank` and `/leaderboard` answer
 * members. Leavers are marked as they leave, so the prune knows who left.
 */
export const levelingFeature = {
  name: 'leveling',
  jobs: {
    'leveling.sync-roles': syncLevelingRoles,
    'leveling.resend-overview': resendOverview,
    'leveling.daily-overview': postScheduledOverview,
    'leveling.prune-leavers': pruneLeavers,
  },
  commands: [rankCommand, leaderboardCommand],
  events: leaverEvents,
  schedules: [dailyOverviewSchedule],
} satisfies WorkerFeature;
