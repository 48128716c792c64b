import type { ColorRolesMode } from '@spacecadet/contract';
import { loadPalette, setColorRoleId, setShadeRoleId } from '@spacecadet/db/queries/color-roles';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import { guildMembers } from '../../guild-members.ts';
import type { JobContext } from '../../jobs/types.ts';
import { moveMemberColor } from './assign.ts';
import { recordColorPick } from './picks.ts';
import { otherModeRoles, type RetiredRole, roleTargets } from './role-targets.ts';
import { clearColorWarnings } from './warnings.ts';

const ROLE_REASON = 'Space Cadet: color mode switched';
/** Discord's largest page of `GET /guilds/{guild}/members`. */

export interface RetireResult {
  /** Old roles deleted from Discord by this run. */
  deleted: number;
  /** Members given the closest role of the current mode by this run. */
  moved: number;
  warnings: string[];
}

/**
 * After `color-roles.generate` made the current mode's roles: retires the roles the palette
 * still records for the other mode (see `otherModeRoles`). In an order that a run killed at any
 * point, retried, ends as one run would:
 *
 * 1. every member holding a retired role gets its successor (a member who already holds a role
 *    of the current mode is skipped, which is also how a retry skips the ones it moved);
 * 2. then each retired role is deleted from Discord, which takes it from every member at once;
 * 3. and only after Discord deleted it (or answered Unknown Role) is its id cleared in Postgres,
 *    so a retry still knows about every role not yet deleted.
 *
 * A retired role whose successor has no role, or could not be given to a member, is kept (and
 * recorded) so its members keep a colour; the next run tries again.
 */
export async function retireOtherModeRoles(
  context: JobContext,
  mode: ColorRolesMode,
  existingRoleIds: ReadonlySet<string>,
  onProgress: (fraction: number) => Promise<void>,
): Promise<RetireResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const palette = await loadPalette(db, guildId);
  const retired = otherModeRoles(palette, mode);
  const result: RetireResult = { deleted: 0, moved: 0, warnings: [] };
  if (retired.length === 0) return result;

  const live = retired.filter((role) => existingRoleIds.has(role.roleId) && role.successorRoleId !== null);
  const failedSuccessors = new Set<string>();
  if (live.length > 0) {
    const currentIds = new Set(roleTargets(palette, mode).flatMap((target) => target.roleId ?? []));
    for await (const member of guildMembers(client, guildId)) {
      if (member.roles.some((id) => currentIds.has(id))) continue;
      const old = live.find((role) => member.roles.includes(role.roleId));
      const successor = old?.successorRoleId;
      if (!old || !successor || failedSuccessors.has(successor)) continue;
      const outcome = await moveMemberColor(
        context.deps,
        guildId,
        member.user.id,
        successor,
        currentIds,
        ROLE_REASON,
      );
      if (outcome === 'moved') {
        result.moved += 1;
        recordColorPick(context.deps, guildId, member.user.id, palette, successor);
      }
      if (outcome === 'missing-permissions' || outcome === 'unknown-role') {
        failedSuccessors.add(successor);
        result.warnings.push(
          outcome === 'missing-permissions'
            ? `I could not give members the role "${old.successorName}" in place of "${old.name}": my role must be above it in Server Settings → Roles. The old roles stay until then.`
            : `The role "${old.successorName}" is missing, so the old roles stay: run Generate Roles again.`,
        );
      }
    }
  }
  await onProgress(0.5);

  for (const [index, role] of retired.entries()) {
    // Kept (and recorded) while its members cannot get its successor; the next run tries again.
    if (role.successorRoleId === null || failedSuccessors.has(role.successorRoleId)) continue;
    if (existingRoleIds.has(role.roleId)) {
      try {
        await discordApi(client).guilds.deleteRole(guildId, role.roleId, { reason: ROLE_REASON });
        result.deleted += 1;
      } catch (error) {
        if (isDiscordError(error, DiscordCodes.MissingPermissions)) {
          // Like reset: the role stays in Discord for the admin to delete; the palette lets it go.
          result.warnings.push(
            `Could not delete the old role "${role.name}": my role must be above it. Delete it by hand.`,
          );
        } else if (!isDiscordError(error, DiscordCodes.UnknownRole)) {
          throw error;
        }
      }
    }
    await unrecord(context, role);
    await clearColorWarnings(context.deps.redis, guildId, [role.roleId]);
    await onProgress(0.5 + (0.5 * (index + 1)) / retired.length);
  }
  return result;
}

async function unrecord(context: JobContext, role: RetiredRole): Promise<void> {
  if (role.kind === 'color') await setColorRoleId(context.deps.db, role.id, null);
  else await setShadeRoleId(context.deps.db, role.id, null);
}
