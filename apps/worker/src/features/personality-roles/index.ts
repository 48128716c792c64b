import type { WorkerFeature } from '../feature.ts';
import { personalityAnswerEvents } from './answers.ts';
import { deleteRetiredPersonalityRoles } from './delete-roles.ts';
import { generatePersonalityRoles } from './generate.ts';
import { publishPersonalityOnboarding } from './onboarding.ts';
import { personalityRoleInteractions } from './picks.ts';
import { postPersonalityMessages } from './post.ts';
import { refreshPersonalityRoles } from './refresh.ts';
import { resetPersonalityRoles } from './reset.ts';
import { restorePersonalityRoles } from './restore.ts';
import { personalityRefreshSchedule } from './schedule.ts';
import { closePersonalitySetups } from './setup-cache.ts';
import { forgetVerifiedOnDelete } from './verified.ts';

/**
 * Personality roles: a role per answer of each enabled question, a message per question in the
 * assignment channel, members pick by clicking, a refresh every 5 minutes repairs what was
 * deleted or went stale, reset removes it all. Optionally the questions are also prompts of the
 * server's Discord Onboarding. A disabled question's roles are deleted when the admin asks.
 * Questions are the catalog's templates or the server's own (key `q<id>`), handled alike; an
 * option's channels are opened to its role; answers (panel, Onboarding, a role given by hand)
 * are recorded once each for insights.
 */
export const personalityRolesFeature = {
  name: 'personality-roles',
  components: [personalityRoleInteractions],
  jobs: {
    'personality-roles.generate': generatePersonalityRoles,
    'personality-roles.post': postPersonalityMessages,
    'personality-roles.refresh': refreshPersonalityRoles,
    'personality-roles.reset': resetPersonalityRoles,
    'personality-roles.onboarding': publishPersonalityOnboarding,
    'personality-roles.delete-roles': deleteRetiredPersonalityRoles,
    'personality-roles.restore': restorePersonalityRoles,
  },
  events: [forgetVerifiedOnDelete, ...personalityAnswerEvents],
  schedules: [personalityRefreshSchedule],
  shutdown: closePersonalitySetups,
} satisfies WorkerFeature;
