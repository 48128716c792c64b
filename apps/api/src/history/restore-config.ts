import { readGuildConfigData, writeGuildConfig } from '../services/guild-config.ts';
import type { AreaRestorers } from './restorers.ts';
import { undoUserId } from './route-checks.ts';

/** Undo of config changes (see `restorers.ts`): the raw config's data, null when there was none. */
export const configRestorers: AreaRestorers = {
  state: {
    config: {
      read: (context) => readGuildConfigData(context.app.services, context.guildId),
      async restore(context, _id, state) {
        const data = state === null ? null : (state as Record<string, unknown>);
        await writeGuildConfig(context.app.services, context.guildId, data, undoUserId(context));
        return {};
      },
    },
  },
  snapshot: {},
};
