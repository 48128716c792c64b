import { type CreateTempRoleBody, TEMP_ROLE_MESSAGES, type TempRole } from '@spacecadet/contract';
import {
  listRunningTempRoles,
  loadRunningTempRole,
  recordTempRole,
  requestEarlyEnd,
} from '@spacecadet/db/queries/temp-roles';
import type { TempRoleRow } from '@spacecadet/db/schema';
import type { FastifyBaseLogger } from 'fastify';
import { notFound } from '../errors.ts';
import type { AppServices } from './container.ts';
import { followUpGuildJob, type JobRequester } from './jobs.ts';
import { assertOptionsGivable } from './role-menu-rows.ts';

/**
 * Temporary roles from the dashboard: the API records them and the worker gives and takes back
 * the role (`temp-roles.grant`, `temp-roles.expire`), as every role change from the API is a
 * job. A queue that is down does not lose one: the worker's sweep of `temp_roles` gives pending
 * rows and takes back due ones whatever Redis holds.
 */

/** A running temporary role as the API answers it. */
export function toTempRole(row: TempRoleRow): TempRole {
  return {
    id: row.id,
    user_id: row.userId,
    role_id: row.roleId,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    granted_by: row.grantedBy,
    source: row.source,
    state: row.state === 'pending' ? 'pending' : 'active',
  };
}

export async function listTempRoles(services: AppServices, guildId: string): Promise<TempRole[]> {
  return (await listRunningTempRoles(services.db, guildId)).map(toTempRole);
}

/**
 * Records a temporary role (the body's member and role are the guild's: the route's guildRefs)
 * after checking the bot can give the role (not managed, below its highest role), and queues its
 * grant. Giving a role the member holds for a time already moves that one's expiry.
 */
export async function createTempRole(
  services: AppServices,
  guildId: string,
  body: CreateTempRoleBody,
  by: JobRequester,
  log: FastifyBaseLogger,
): Promise<TempRoleRow> {
  await assertOptionsGivable(services.guildResources, guildId, [
    { path: 'role_id', name: 'role_id', role_id: body.role_id },
  ]);
  const row = await recordTempRole(services.db, {
    guildId,
    userId: body.user_id,
    roleId: body.role_id,
    expiresAt: new Date(Date.now() + body.duration_s * 1000),
    grantedBy: by.userId,
    source: 'api',
    state: 'pending',
  });
  await followUpGuildJob(
    services.queue,
    log,
    'temp-roles.grant',
    guildId,
    by,
    "the worker's sweep of temporary roles gives it within a minute",
  );
  return row;
}

/** Ends a running temporary role now: the worker takes the role back (`temp-roles.expire`). */
export async function endTempRoleEarly(
  services: AppServices,
  guildId: string,
  id: number,
  by: JobRequester,
  log: FastifyBaseLogger,
): Promise<TempRoleRow> {
  const running = await loadRunningTempRole(services.db, guildId, id);
  const ended = running ? await requestEarlyEnd(services.db, guildId, id) : null;
  if (!ended) throw notFound(TEMP_ROLE_MESSAGES.notFound);
  await followUpGuildJob(
    services.queue,
    log,
    'temp-roles.expire',
    guildId,
    by,
    "the worker's sweep of temporary roles takes it back within a minute",
  );
  return ended;
}
