import { enqueueGuildJob } from '../services/jobs.ts';
import type { AreaRestorers } from './restorers.ts';

/**
 * Undo of Reset Personality: the `personality-roles.restore` job brings back the questions, their
 * roles (to the members who held them), the messages and the Onboarding questions, from the
 * snapshot the route and the reset job stored. The undo route already asked for it.
 */
export const personalityResetRestorers: AreaRestorers = {
  state: {},
  snapshot: {
    'personality_roles.reset': {
      byJob: true,
      async restore({ app, guildId, requester }) {
        return {
          jobId: await enqueueGuildJob(app.services.queue, 'personality-roles.restore', guildId, requester, {
            // A restore job running now read its entries already: one more run takes this one.
            afterChange: true,
          }),
        };
      },
    },
  },
};
