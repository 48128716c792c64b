import { routes } from '@spacecadet/contract';
import {
  readPersonalityChannelState,
  readPersonalityOnboardingState,
  writePersonalityChannel,
  writePersonalityOnboarding,
} from '../services/personality-roles.ts';
import type { AreaRestorers } from './restorers.ts';
import { checkAsRoute } from './route-checks.ts';

/**
 * Undo of personality settings changes (see `restorers.ts`): the assignment channel (a refresh
 * follows on a set-up guild) and the Onboarding switch (its job makes Discord match: 202).
 */
export const personalitySettingsRestorers: AreaRestorers = {
  state: {
    'personality_roles:channel': {
      read: (context) => readPersonalityChannelState(context.app.services.db, context.guildId),
      async restore(context, _id, state) {
        const channelId = (state as { channel_id: string | null } | null)?.channel_id ?? null;
        if (channelId !== null)
          await checkAsRoute(context, routes.setPersonalityChannel, { channel_id: channelId });
        await writePersonalityChannel(
          context.app.services,
          context.guildId,
          channelId,
          context.requester,
          context.request.log,
        );
        return {};
      },
    },
    'personality_roles:onboarding': {
      read: (context) => readPersonalityOnboardingState(context.app.services.db, context.guildId),
      async restore(context, _id, state) {
        const enabled = (state as { enabled: boolean } | null)?.enabled ?? false;
        const jobId = await writePersonalityOnboarding(
          context.app.services,
          context.guildId,
          enabled,
          context.requester,
        );
        return { jobId };
      },
    },
  },
  snapshot: {},
};
