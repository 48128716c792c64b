import type { JobResult } from '@spacecadet/contract';
import { tempRoleEndSummary } from '@spacecadet/core';
import {
  claimExpiring,
  dueTempRoles,
  endTempRole,
  markTempRoleGiven,
  pendingTempRoles,
} from '@spacecadet/db/queries/temp-roles';
import type { TempRoleRow } from '@spacecadet/db/schema';
import type { WorkerDeps } from '../../deps.ts';
import type { JobContext } from '../../jobs/types.ts';
import { giveTempRole, recordTempRoleHistory, scheduleExpiry, takeTempRole } from './roles.ts';

/**
 * A run that arrives this much before a row's `expires_at` still takes it back: the delayed run
 * is timed by Redis' clock, the rows by this process's.
 */
const EARLY_MS = 1_000;

/**
 * `temp-roles.grant` and `temp-roles.expire` (the delayed run at an expiry, the sweep, an
 * admin's early end) do the same idempotent work for the guild, under its `temp-roles` lock:
 * give the roles recorded but not given yet, then take back every role that is due. A run
 * repeated, or killed halfway, leaves each row in a state the next run finishes.
 */
export async function settleTempRoles({ deps, payload }: JobContext): Promise<JobResult> {
  const guildId = payload.guild_id;
  const given = await givePending(deps, guildId);
  const ended = await expireDue(deps, guildId);
  return {
    ok: true,
    summary: `Gave ${given} temporary role${given === 1 ? '' : 's'}, ended ${ended}`,
    created: given,
    deleted: ended,
  };
}

async function givePending(deps: WorkerDeps, guildId: string): Promise<number> {
  let given = 0;
  const now = Date.now();
  for (const row of await pendingTempRoles(deps.db, guildId)) {
    // Due before it was given (the worker was away): expireDue ends it.
    if (row.expiresAt.getTime() <= now) continue;
    const outcome = await giveTempRole(deps, guildId, row.userId, row.roleId);
    if (outcome === 'given') {
      if (await markTempRoleGiven(deps.db, row.id)) given += 1;
      await scheduleExpiry(deps, row);
      continue;
    }
    const ended = await endTempRole(deps.db, row.id, 'not_given', ['pending']);
    if (ended) {
      await recordTempRoleHistory(
        deps,
        ended,
        'temp_roles.end',
        tempRoleEndSummary('not_given', row.userId, row.roleId),
      );
    }
  }
  return given;
}

async function expireDue(deps: WorkerDeps, guildId: string): Promise<number> {
  let ended = 0;
  for (const due of await dueTempRoles(deps.db, guildId, new Date(Date.now() + EARLY_MS))) {
    const row = await claimExpiring(deps.db, due.id);
    if (row && (await expireOne(deps, row))) ended += 1;
  }
  return ended;
}

/**
 * Takes one claimed row's role back and ends it. A member who left ends it as
 * `expired_absent` (taken back if they return holding it). An early end asked for by the API
 * was recorded in History by its route; every other end is recorded here.
 */
async function expireOne(deps: WorkerDeps, row: TempRoleRow): Promise<boolean> {
  const outcome = await takeTempRole(deps, row.guildId, row.userId, row.roleId);
  const early = row.endReason === 'ended_early';
  const reason = early ? 'ended_early' : outcome === 'not_member' ? 'expired_absent' : 'expired';
  const ended = await endTempRole(deps.db, row.id, reason, ['expiring']);
  if (!ended) return false;
  if (outcome === 'refused') {
    deps.logger.warn({ guildId: row.guildId, roleId: row.roleId }, 'temporary role not taken back: refused');
  }
  if (!early) {
    const summary = tempRoleEndSummary(reason, row.userId, row.roleId);
    await recordTempRoleHistory(
      deps,
      ended,
      'temp_roles.end',
      outcome === 'refused'
        ? `${summary.replace(' and was taken back', '')}, but I could not take it back: my role is not above it`
        : summary,
    );
  }
  return true;
}
