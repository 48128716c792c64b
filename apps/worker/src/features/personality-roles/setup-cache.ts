import {
  loadPersonalityConfig,
  loadPersonalityQuestions,
  PERSONALITY_SETUP_CHANNEL,
  type StoredPersonalityConfig,
  type StoredPersonalityQuestion,
} from '@spacecadet/db/queries/personality-roles';
import type { WorkerDeps } from '../../deps.ts';
import { guildSetupCache } from '../../guild-setup-cache.ts';

/**
 * The scheduled refresh reads every configured guild's setup every 5 minutes, and a setup
 * rarely changes: each process keeps a copy per configured guild, dropped when Postgres
 * announces a change (see guild-setup-cache.ts), so a steady-state refresh reads nothing from
 * Postgres. A process with more than 2,000 configured guilds simply reads the rest.
 *
 * A run somebody asked for (an admin's change, a member's click) reads Postgres anyway: the
 * announcement of the change that asked for it may still be on its way.
 */
export interface PersonalitySetup {
  config: StoredPersonalityConfig;
  /** Shared with later readers: not to be changed. */
  questions: readonly StoredPersonalityQuestion[];
}

const personalitySetups = guildSetupCache<PersonalitySetup>({
  name: 'personality-roles',
  channel: PERSONALITY_SETUP_CHANNEL,
  max: 2_000,
  async load(deps, guildId) {
    const [config, questions] = await Promise.all([
      loadPersonalityConfig(deps.db, guildId),
      loadPersonalityQuestions(deps.db, guildId),
    ]);
    return { config, questions };
  },
  keep: (setup) => setup.config.configured,
});

export function loadPersonalitySetup(
  deps: WorkerDeps,
  guildId: string,
  options: { fresh: boolean },
): Promise<PersonalitySetup> {
  return personalitySetups.get(deps, guildId, options);
}

/** The feature's shutdown: the listening connection goes before Postgres closes. */
export function closePersonalitySetups(deps: WorkerDeps): Promise<void> {
  return personalitySetups.close(deps);
}
