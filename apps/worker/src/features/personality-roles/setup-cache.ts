import {
  loadPersonalityConfig,
  loadPersonalityQuestions,
  type PersonalitySetupWatch,
  type StoredPersonalityConfig,
  type StoredPersonalityQuestion,
  watchPersonalitySetups,
} from '@spacecadet/db/queries/personality-roles';
import type { WorkerDeps } from '../../deps.ts';

/**
 * The scheduled refresh reads every configured guild's setup every 5 minutes, and a setup
 * rarely changes: each process keeps a copy per guild and drops it when Postgres announces a
 * change of that guild's setup (NOTIFY from triggers on every personality table, migration
 * 0004), so a steady-state refresh reads nothing from Postgres. While the listening connection
 * is down nothing is kept (a change could go unheard). Bounded: past SETUPS_KEPT guilds the
 * least recently used goes; a process with more guilds than that simply reads them all.
 *
 * A run somebody asked for (an admin's change, a member's click) reads Postgres anyway: the
 * announcement of the change that asked for it may still be on its way.
 */
const SETUPS_KEPT = 2_000;

export interface PersonalitySetup {
  config: StoredPersonalityConfig;
  /** Shared with later readers: not to be changed. */
  questions: readonly StoredPersonalityQuestion[];
}

interface SetupCache {
  watch: PersonalitySetupWatch;
  setups: Map<string, PersonalitySetup>;
  /** Per guild, bumped on each change heard; `epoch` on each lost connection. */
  changes: Map<string, number>;
  epoch: number;
}

const caches = new WeakMap<WorkerDeps['db'], SetupCache>();

function cacheOf(deps: WorkerDeps): SetupCache {
  let cache = caches.get(deps.db);
  if (!cache) {
    const setups = new Map<string, PersonalitySetup>();
    const changes = new Map<string, number>();
    const created: SetupCache = {
      setups,
      changes,
      epoch: 0,
      watch: watchPersonalitySetups(deps.config.databaseUrl, {
        changed(guildId) {
          setups.delete(guildId);
          changes.set(guildId, (changes.get(guildId) ?? 0) + 1);
        },
        lost() {
          setups.clear();
          created.epoch += 1;
          deps.logger.warn('personality setup watch lost its connection; reconnecting');
        },
      }),
    };
    cache = created;
    caches.set(deps.db, cache);
  }
  return cache;
}

export async function loadPersonalitySetup(
  deps: WorkerDeps,
  guildId: string,
  options: { fresh: boolean },
): Promise<PersonalitySetup> {
  const cache = cacheOf(deps);
  const kept = cache.setups.get(guildId);
  if (kept && !options.fresh && cache.watch.live) {
    cache.setups.delete(guildId);
    cache.setups.set(guildId, kept);
    return kept;
  }
  const stamp = `${cache.epoch}:${cache.changes.get(guildId) ?? 0}`;
  const [config, questions] = await Promise.all([
    loadPersonalityConfig(deps.db, guildId),
    loadPersonalityQuestions(deps.db, guildId),
  ]);
  const setup = { config, questions };
  // Kept only if no change was heard (and the connection held) while reading.
  const unchanged = stamp === `${cache.epoch}:${cache.changes.get(guildId) ?? 0}`;
  if (config.configured && cache.watch.live && unchanged) {
    cache.setups.delete(guildId);
    cache.setups.set(guildId, setup);
    if (cache.setups.size > SETUPS_KEPT) {
      const oldest = cache.setups.keys().next();
      if (!oldest.done) cache.setups.delete(oldest.value);
    }
  }
  return setup;
}

/** The feature's shutdown: the listening connection goes before Postgres closes. */
export async function closePersonalitySetups(deps: WorkerDeps): Promise<void> {
  const cache = caches.get(deps.db);
  caches.delete(deps.db);
  await cache?.watch.close();
}
