import {
  LEVELING_SETUP_CHANNEL,
  loadLevelingBoosts,
  loadLevelingBoostsOf,
  loadLevelingSettings,
  loadLevelingSettingsOf,
  type StoredBoost,
  type StoredLevelingSettings,
  storedLevelingSettings,
} from '@spacecadet/db/queries/leveling';
import { guildSetupCache } from '../../guild-setup-cache.ts';
import { errorFields } from '../../logger.ts';
import { matchDecaySchedule } from './curve-jobs.ts';
import { matchDailyOverviewSchedule } from './overview-schedule.ts';
import { matchSeasonSchedule } from './season-schedule.ts';

/**
 * What pricing a chat message needs: the guild's settings and boosts. Read on every message,
 * so each process keeps a copy per guild (guilds without leveling too: their messages must
 * cost nothing either), dropped when Postgres announces a change of the guild's leveling
 * tables (migration 0006). Boost expiry needs no announcement: it is checked per message.
 * A change also makes the guild's daily overview scheduler match the new settings, so a reset
 * or a cleared channel removes it and a new channel adds it.
 */
export interface LevelingSetup {
  settings: StoredLevelingSettings;
  boosts: readonly StoredBoost[];
}

const DEFAULT_SETUP: LevelingSetup = { settings: storedLevelingSettings(undefined), boosts: [] };
const DEFAULT_SETTINGS_JSON = JSON.stringify(DEFAULT_SETUP.settings);

function setupOf(settings: StoredLevelingSettings, boosts: readonly StoredBoost[]): LevelingSetup {
  // Most guilds never set leveling up: they share one default setup (read only).
  if (boosts.length === 0 && JSON.stringify(settings) === DEFAULT_SETTINGS_JSON) return DEFAULT_SETUP;
  return { settings, boosts };
}

export const levelingSetups = guildSetupCache<LevelingSetup>({
  name: 'leveling',
  channel: LEVELING_SETUP_CHANNEL,
  max: 20_000,
  async load(deps, guildId) {
    const [settings, boosts] = await Promise.all([
      loadLevelingSettings(deps.db, guildId),
      loadLevelingBoosts(deps.db, guildId),
    ]);
    return setupOf(settings, boosts);
  },
  // A burst of chat across thousands of cold guilds (a restart, a big bot) reads them together.
  async loadMany(deps, guildIds) {
    const [settings, boosts] = await Promise.all([
      loadLevelingSettingsOf(deps.db, guildIds),
      loadLevelingBoostsOf(deps.db, guildIds),
    ]);
    return new Map(
      guildIds.map((guildId) => [
        guildId,
        setupOf(settings.get(guildId) ?? storedLevelingSettings(undefined), boosts.get(guildId) ?? []),
      ]),
    );
  },
  changed(deps, guildId) {
    levelingSetups
      .get(deps, guildId)
      .then((setup) =>
        Promise.all([
          matchDailyOverviewSchedule(deps, guildId, setup.settings),
          matchDecaySchedule(deps, guildId, setup.settings),
          matchSeasonSchedule(deps, guildId, setup.settings),
        ]),
      )
      .catch((error: unknown) =>
        deps.logger.warn({ ...errorFields(error), guildId }, 'daily overview schedule not updated'),
      );
  },
});
