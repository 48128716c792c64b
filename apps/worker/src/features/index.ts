import type { JobName } from '@spacecadet/contract';
import { accessCacheFeature } from './access-cache/index.ts';
import { autoRolesFeature } from './auto-roles/index.ts';
import { colorRolesFeature } from './color-roles/index.ts';
import type { WorkerFeature } from './feature.ts';
import { guildDataFeature } from './guild-data/index.ts';
import { historyFeature } from './history/index.ts';
import { levelingFeature } from './leveling/index.ts';
import { linkedRolesFeature } from './linked-roles/index.ts';
import { memberPicksFeature } from './member-picks/index.ts';
import { personalityRolesFeature } from './personality-roles/index.ts';
import { presenceFeature } from './presence/index.ts';
import { reactionRolesFeature } from './reaction-roles/index.ts';
import { repairsFeature } from './repairs/index.ts';
import { roleMenusFeature } from './role-menus/index.ts';
import { setupWatchFeature } from './setup-watch/index.ts';
import { tempRolesFeature } from './temp-roles/index.ts';
import { voiceXpFeature } from './voice-xp/index.ts';
import { welcomeFeature } from './welcome/index.ts';

/** Every feature of the worker. A new feature is one folder and one line here. */
export const FEATURES = [
  presenceFeature,
  accessCacheFeature,
  setupWatchFeature,
  colorRolesFeature,
  personalityRolesFeature,
  // Before leveling: its shutdown stops the minutes, then leveling's flushes the XP they credited.
  voiceXpFeature,
  levelingFeature,
  linkedRolesFeature,
  reactionRolesFeature,
  roleMenusFeature,
  repairsFeature,
  historyFeature,
  memberPicksFeature,
  guildDataFeature,
  autoRolesFeature,
  tempRolesFeature,
  welcomeFeature,
] as const satisfies readonly WorkerFeature[];

/** Every job name of the contract has a handler in some feature; a missing one is a type error. */
type HandledJob = (typeof FEATURES)[number] extends infer Feature
  ? Feature extends { jobs: infer Jobs }
    ? keyof Jobs
    : never
  : never;
const everyJobHandled: Record<Exclude<JobName, HandledJob>, never> = {};
void everyJobHandled;
