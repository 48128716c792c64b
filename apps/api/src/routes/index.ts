import type { FastifyInstance } from 'fastify';
import { registerAuthRoutes } from './auth.ts';
import { registerChannelRoutes } from './channels.ts';
import { registerColorRoleRoutes } from './color-roles.ts';
import { registerGuildDataRoutes } from './guild-data.ts';
import { registerGuildPickerRoutes } from './guild-pickers.ts';
import { registerGuildConfigRoutes } from './guilds-config.ts';
import { registerHealthRoutes } from './health.ts';
import { registerHistoryRoutes } from './history.ts';
import { registerInstallRoutes } from './install.ts';
import { registerJobRoutes } from './jobs.ts';
import { registerLevelingRoutes } from './leveling/index.ts';
import { registerLevelingPreviewRoutes } from './leveling/previews.ts';
import { registerMemberDataRoutes } from './member-data.ts';
import { registerPersonalityQuestionRoutes } from './personality-questions.ts';
import { registerPersonalityRoutes } from './personality-roles.ts';
import { registerQueueViewRoutes } from './queue-view.ts';
import { registerReactionRoleRoutes } from './reaction-roles.ts';
import { registerResetPreviewRoutes } from './reset-previews.ts';
import { registerRoleMenuRoutes } from './role-menus.ts';
import { registerSetupRoutes } from './setup.ts';
import { registerTempRoleRoutes } from './temp-roles.ts';
import { registerWelcomeRoutes } from './welcome.ts';

/** Every served route of the contract table, one module per resource. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  registerHealthRoutes(app);
  registerAuthRoutes(app);
  registerInstallRoutes(app);
  registerJobRoutes(app);
  registerGuildConfigRoutes(app);
  registerChannelRoutes(app);
  registerGuildPickerRoutes(app);
  registerColorRoleRoutes(app);
  registerPersonalityRoutes(app);
  registerPersonalityQuestionRoutes(app);
  registerReactionRoleRoutes(app);
  registerRoleMenuRoutes(app);
  registerLevelingRoutes(app);
  registerWelcomeRoutes(app);
  registerHistoryRoutes(app);
  registerResetPreviewRoutes(app);
  registerLevelingPreviewRoutes(app);
  registerQueueViewRoutes(app);
  registerSetupRoutes(app);
  registerMemberDataRoutes(app);
  registerGuildDataRoutes(app);
  registerTempRoleRoutes(app);
}
