/**
 * Levels in Discord's Linked Roles, the API's part: link a signed-in user with a code of the
 * linking OAuth (tokens sealed at rest, as a sign-in's), let them pick the server whose level
 * their role connection shows, and unlink. The worker pushes the values (`linked-roles.push`);
 * a link or a pick queues that job for the server at once.
 */
import { LINKED_ROLES_PATH, LINKED_ROLES_SCOPES, type LinkedRolesState } from '@spacecadet/contract';
import {
  deleteRoleConnection,
  linkableServers,
  loadRoleConnection,
  pickRoleConnectionGuild,
  saveRoleConnection,
} from '@spacecadet/db/queries/role-connections';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, notFound } from '../../errors.ts';
import type { AppServices } from '../container.ts';
import { DiscordError, type DiscordTokenResponse } from '../discord.ts';
import { followUpGuildJob, type JobRequester } from '../jobs.ts';

/** A token this close to expiring is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;

export async function linkedRolesState(services: AppServices, userId: string): Promise<LinkedRolesState> {
  const [row, servers] = await Promise.all([
    loadRoleConnection(services.db, userId),
    linkableServers(services.db, userId),
  ]);
  return {
    linked: row !== undefined,
    guild_id: row?.guildId ?? null,
    pushed:
      row?.pushedLevel != null && row.pushedAt
        ? { level: row.pushedLevel, xp: row.pushedXp ?? 0, at: row.pushedAt.toISOString() }
        : null,
    push_pending: row?.pushDueAt != null,
    servers: servers.map((s) => ({ guild_id: s.guildId, name: s.name, level: s.level, xp: s.xp })),
  };
}

function queuePush(services: AppServices, log: FastifyBaseLogger, guildId: string, by: JobRequester) {
  return followUpGuildJob(
    services.queue,
    log,
    'linked-roles.push',
    guildId,
    by,
    'the next scheduled push sends it',
  );
}

export const LINK_CODE_REFUSED_MESSAGE =
  'Discord refused this link: it expired or was already used. Link with Discord again.';

async function exchangeLinkCode(services: AppServices, code: string): Promise<DiscordTokenResponse> {
  try {
    return await services.discord.exchangeCode(
      code,
      null,
      `${services.config.dashboardUrl}${LINKED_ROLES_PATH}`,
    );
  } catch (error) {
    if (error instanceof DiscordError && error.status >= 400 && error.status < 500) {
      // The user's session is fine: a refused code (expired, used, forged) is a bad request, so
      // the page offers to link again rather than to sign in again.
      throw Object.assign(new ApiError('invalid_input', LINK_CODE_REFUSED_MESSAGE), { cause: error });
    }
    throw Object.assign(
      new ApiError('discord_request_failed', 'Discord did not answer. Try linking again.'),
      {
        cause: error,
      },
    );
  }
}

/**
 * Links the signed-in user: trades the code (no PKCE, the client secret), checks the grant has
 * `role_connections.write` and is this user's own Discord account, then stores the tokens
 * sealed. A first link shows the user's top server when they have one; a relink keeps the pick.
 */
export async function linkRoleConnection(
  services: AppServices,
  userId: string,
  code: string,
  by: JobRequester,
  log: FastifyBaseLogger,
): Promise<LinkedRolesState> {
  const tokens = await exchangeLinkCode(services, code);
  const scopes = (tokens.scope ?? '').split(' ');
  if (!LINKED_ROLES_SCOPES.every((scope) => scopes.includes(scope))) {
    throw new ApiError(
      'forbidden',
      'Discord did not grant "role_connections.write": link again and allow it.',
    );
  }
  let discordUserId: string;
  try {
    discordUserId = (await services.discord.getCurrentUser(tokens.access_token)).id;
  } catch (error) {
    throw Object.assign(
      new ApiError('discord_request_failed', 'Discord did not answer. Try linking again.'),
      {
        cause: error,
      },
    );
  }
  if (discordUserId !== userId) {
    throw new ApiError(
      'forbidden',
      'That is another Discord account than the one signed in here: link with the same account.',
    );
  }
  const [top] = await linkableServers(services.db, userId);
  const row = await saveRoleConnection(services.db, {
    userId,
    guildId: top?.guildId ?? null,
    accessTokenEnc: services.cipher.encrypt(tokens.access_token),
    refreshTokenEnc: tokens.refresh_token ? services.cipher.encrypt(tokens.refresh_token) : null,
    tokenExpiresAt: new Date(Date.now() + tokens.expires_in * 1000),
  });
  if (row.guildId) await queuePush(services, log, row.guildId, by);
  return linkedRolesState(services, userId);
}

/** Shows another server: one where the user has XP and the bot is present. */
export async function pickLinkedServer(
  services: AppServices,
  userId: string,
  guildId: string,
  by: JobRequester,
  log: FastifyBaseLogger,
): Promise<LinkedRolesState> {
  if (!(await loadRoleConnection(services.db, userId)))
    throw notFound('Not linked: link with Discord first.');
  const servers = await linkableServers(services.db, userId);
  if (!servers.some((s) => s.guildId === guildId)) {
    throw new ApiError('invalid_input', 'Pick a server where you have XP and Space Cadet is present.', [
      { path: 'guild_id', message: 'Not one of your servers with XP' },
    ]);
  }
  const row = await pickRoleConnectionGuild(services.db, userId, guildId);
  if (!row) throw notFound('Not linked: link with Discord first.');
  await queuePush(services, log, guildId, by);
  return linkedRolesState(services, userId);
}

/** The stored access token, refreshed when about to expire; null when Discord no longer honours the grant. */
async function liveAccessToken(
  services: Pick<AppServices, 'discord' | 'cipher'>,
  row: NonNullable<Awaited<ReturnType<typeof loadRoleConnection>>>,
) {
  const { cipher, discord } = services;
  if (row.tokenExpiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS || !row.refreshTokenEnc) {
    return cipher.decrypt(row.accessTokenEnc);
  }
  try {
    return (await discord.refreshToken(cipher.decrypt(row.refreshTokenEnc))).access_token;
  } catch (error) {
    if (error instanceof DiscordError && error.status >= 400 && error.status < 500) return null;
    throw error;
  }
}

/**
 * Unlinks: clears the role connection on Discord with the user's token, then deletes the row.
 * The row goes even when Discord cannot be reached (the user asked to be forgotten); the user
 * can then remove the connection in Discord's settings, which the log says.
 */
export async function unlinkRoleConnection(
  services: Pick<AppServices, 'db' | 'discord' | 'cipher'>,
  userId: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const row = await loadRoleConnection(services.db, userId);
  if (!row) return;
  try {
    const token = await liveAccessToken(services, row);
    if (token !== null) await services.discord.deleteRoleConnection(token);
  } catch (error) {
    // 401: the grant was revoked, so Discord dropped the connection itself.
    if (!(error instanceof DiscordError && error.status === 401)) {
      log.warn(
        { err: error, userId },
        'Linked Roles connection not cleared on Discord; the link is deleted anyway',
      );
    }
  }
  await deleteRoleConnection(services.db, userId);
}
