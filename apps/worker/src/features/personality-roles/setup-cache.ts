import type { Db } from '@spacecadet/db';
import {
  loadPersonalityConfig,
  loadPersonalityQuestions,
  type StoredPersonalityConfig,
  type StoredPersonalityQuestion,
} from '@spacecadet/db/queries/personality-roles';

/**
 * The refresh reads every configured guild's setup every 5 minutes, and a setup rarely
 * changes: the questions and options are kept here per guild with the config's `version`
 * (moved by database triggers on any change to the setup), so a refresh reads one small row
 * and re-reads the questions only when the version moved. Bounded: past SETUPS_KEPT guilds the
 * least recently used goes, and a process with more guilds than that simply reads them all.
 */
const SETUPS_KEPT = 2_000;
const setups = new Map<string, { version: number; questions: readonly StoredPersonalityQuestion[] }>();

export interface PersonalitySetup {
  config: StoredPersonalityConfig;
  /** Shared with later readers: not to be changed. */
  questions: readonly StoredPersonalityQuestion[];
}

export async function loadPersonalitySetup(db: Db, guildId: string): Promise<PersonalitySetup> {
  const config = await loadPersonalityConfig(db, guildId);
  const kept = setups.get(guildId);
  setups.delete(guildId);
  if (kept && kept.version === config.version) {
    setups.set(guildId, kept);
    return { config, questions: kept.questions };
  }
  // Read after the version: a change in between makes the version move again, so a copy newer
  // than its version is re-read next time, never trusted past a change.
  const questions = await loadPersonalityQuestions(db, guildId);
  if (config.configured) {
    setups.set(guildId, { version: config.version, questions });
    if (setups.size > SETUPS_KEPT) {
      const oldest = setups.keys().next();
      if (!oldest.done) setups.delete(oldest.value);
    }
  }
  return { config, questions };
}
