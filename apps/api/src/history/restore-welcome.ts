import { routes, type WelcomeSettings } from '@spacecadet/contract';
import { getWelcomeSettings } from '@spacecadet/db/queries/welcome';
import { writeWelcomeSettings } from '../services/welcome.ts';
import type { AreaRestorers } from './restorers.ts';
import { checkAsRoute } from './route-checks.ts';

/** Undo of welcome changes (see `restorers.ts`): the settings before, written as the PUT writes. */
export const welcomeRestorers: AreaRestorers = {
  state: {
    'welcome:settings': {
      read(context) {
        return getWelcomeSettings(context.app.services.db, context.guildId);
      },
      async restore(context, _id, state) {
        // A channel or role of the settings deleted since: a 400 naming it, as the PUT answers.
        await checkAsRoute(context, routes.putWelcome, state);
        await writeWelcomeSettings(context.app, context.guildId, state as WelcomeSettings);
        return {};
      },
    },
  },
  snapshot: {},
};
