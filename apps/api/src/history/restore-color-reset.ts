import { enqueueGuildJob } from '../services/jobs.ts';
import type { AreaRestorers } from './restorers.ts';

/**
 * Undo of Reset Color Roles: the `color-roles.restore` job brings back the palette, its roles
 * (to the members who held them, in their old order) and the panel, from the snapshot the reset
 * job stored. The undo route already asked for it (`claimUndo` with `restore`).
 */
export const colorResetRestorers: AreaRestorers = {
  state: {},
  snapshot: {
    'color_roles.reset': {
      byJob: true,
      async restore({ app, guildId, requester }) {
        return {
          jobId: await enqueueGuildJob(app.services.queue, 'color-roles.restore', guildId, requester, {
            // A restore job running now read its entries already: one more run takes this one.
            afterChange: true,
          }),
        };
      },
    },
  },
};
