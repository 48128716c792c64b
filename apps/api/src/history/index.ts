import { colorResetRestorers } from './restore-color-reset.ts';
import { colorSettingsRestorers } from './restore-color-settings.ts';
import { configRestorers } from './restore-config.ts';
import { levelingRestorers } from './restore-leveling.ts';
import { personalityQuestionRestorers } from './restore-personality-questions.ts';
import { personalityResetRestorers } from './restore-personality-reset.ts';
import { personalitySettingsRestorers } from './restore-personality-settings.ts';
import { reactionRoleRestorers } from './restore-reaction-roles.ts';
import { roleMenuRestorers } from './restore-role-menus.ts';
import { welcomeRestorers } from './restore-welcome.ts';
import type { AreaRestorers, SnapshotRestorers, StateRestorers } from './restorers.ts';

const AREAS: readonly AreaRestorers[] = [
  configRestorers,
  reactionRoleRestorers,
  roleMenuRestorers,
  colorSettingsRestorers,
  colorResetRestorers,
  personalitySettingsRestorers,
  personalityResetRestorers,
  personalityQuestionRestorers,
  levelingRestorers,
  welcomeRestorers,
];

/**
 * Every restorer, gathered from the areas' files. A `state` subject kind or `snapshot` action
 * without one answers 409 "cannot be undone" (apps/api/test/history-coverage.test.ts holds the
 * tables complete).
 */
export const STATE_RESTORERS: StateRestorers = Object.assign({}, ...AREAS.map((area) => area.state));
export const SNAPSHOT_RESTORERS: SnapshotRestorers = Object.assign({}, ...AREAS.map((area) => area.snapshot));
