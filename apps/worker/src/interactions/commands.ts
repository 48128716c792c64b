import { Routes } from 'discord.js';
import type { WorkerDeps } from '../deps.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { errorFields } from '../logger.ts';
import { colorsCommand } from './colors.ts';

/** Only commands whose feature works end to end: /rank comes back with XP earning (leveling). */
export const SLASH_COMMANDS: readonly SlashCommand[] = [colorsCommand];

/**
 * Bulk-overwrites the global commands with ours, so renamed or removed commands disappear.
 * A failure is logged, not fatal: panels and jobs work without slash commands.
 */
export async function registerSlashCommands(deps: WorkerDeps): Promise<void> {
  const { client, config, logger } = deps;
  const applicationId = config.discordClientId ?? client.application?.id;
  if (!applicationId) {
    logger.warn('no application id: slash commands not registered');
    return;
  }
  try {
    await client.rest.put(Routes.applicationCommands(applicationId), {
      body: SLASH_COMMANDS.map((command) => command.data),
    });
    logger.info(
      { commands: SLASH_COMMANDS.map((command) => command.data.name) },
      'slash commands registered',
    );
  } catch (error) {
    logger.error(errorFields(error), 'slash command registration failed');
  }
}
