import { ApplicationRoleConnectionMetadataType } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { publishRoleConnectionMetadata } from '../../discord-rest.ts';

/**
 * What a linked member's role connection carries: the level and the XP in the server they
 * picked. Admins then require e.g. "Level ≥ 10" on a role in Discord's own settings.
 */
export const LINKED_ROLES_METADATA = [
  {
    type: ApplicationRoleConnectionMetadataType.IntegerGreaterThanOrEqual,
    key: 'level',
    name: 'Level',
    description: 'Leveling level in the server the member picked',
  },
  {
    type: ApplicationRoleConnectionMetadataType.IntegerGreaterThanOrEqual,
    key: 'xp',
    name: 'XP',
    description: 'Total XP in the server the member picked',
  },
];

/** Publishes the metadata at start, only when Discord's differ (every worker process may run it). */
export async function publishLinkedRolesMetadata(deps: WorkerDeps): Promise<void> {
  const applicationId = deps.config.discordClientId ?? deps.client.application?.id;
  if (!applicationId) {
    deps.logger.warn('no application id: Linked Roles metadata not published');
    return;
  }
  if (await publishRoleConnectionMetadata(deps.client, applicationId, LINKED_ROLES_METADATA)) {
    deps.logger.info({ keys: LINKED_ROLES_METADATA.map((m) => m.key) }, 'Linked Roles metadata published');
  }
}
