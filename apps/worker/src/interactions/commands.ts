import type { WorkerDeps } from '../deps.ts';
import { discordApi } from '../discord-rest.ts';
import { errorFields } from '../logger.ts';
import type { SlashCommand } from './types.ts';

/**
 * Bulk-overwrites the global commands with ours, so renamed or removed commands disappear.
 * A failure is logged, not fatal: panels and jobs work without slash commands.
 */
export async function registerSlashCommands(
  deps: WorkerDeps,
  commands: readonly SlashCommand[],
): Promise<void> {
  const { client, config, logger } = deps;
  const applicationId = config.discordClientId ?? client.application?.id;
  if (!applicationId) {
    logger.warn('no application id: slash commands not registered');
    return;
  }
  try {
    await discordApi(client).applicationCommands.bulkOverwriteGlobalCommands(
      applicationId,
      commands.map((command) => command.data),
    );
    logger.info({ commands: commands.map((command) => command.data.name) }, 'slash commands registered');
  } catch (error) {
    logger.error(errorFields(error), 'slash command registration failed');
  }
}
