import { TokenCipher } from '@spacecadet/core/token-cipher';
import { roleConnectionsOfGuild } from '@spacecadet/db/queries/role-connections';
import type { WorkerDeps } from '../../deps.ts';
import { memberApi } from '../../discord-rest.ts';
import { errorFields } from '../../logger.ts';

/**
 * Before a server's data is deleted (the admin's delete, or the purge after the bot left): the
 * role connections showing its level are cleared on Discord with each member's token, so no
 * profile keeps a level of a server Space Cadet no longer knows. Best effort: a member whose
 * token no longer works (expired, revoked) keeps what Discord has until they remove it; the
 * links themselves go with the server's rows.
 */
export async function clearGuildRoleConnections(deps: WorkerDeps, guildId: string): Promise<number> {
  const linked = deps.config.linkedRoles;
  const applicationId = deps.config.discordClientId ?? deps.client.application?.id;
  if (!linked || !applicationId) return 0;
  const cipher = new TokenCipher(linked.sessionSecret);
  let cleared = 0;
  for (const row of await roleConnectionsOfGuild(deps.db, guildId)) {
    if (row.tokenExpiresAt.getTime() <= Date.now()) continue;
    try {
      await memberApi(deps.config, cipher.decrypt(row.accessTokenEnc)).users.updateApplicationRoleConnection(
        applicationId,
        {},
      );
      cleared += 1;
    } catch (error) {
      deps.logger.warn(
        { ...errorFields(error), guildId, user: row.userId },
        'Linked Roles connection not cleared',
      );
    }
  }
  return cleared;
}
