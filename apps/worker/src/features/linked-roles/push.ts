import type { JobResult } from '@spacecadet/contract';
import { TokenCipher } from '@spacecadet/core/token-cipher';
import {
  type DueRoleConnection,
  dropRoleConnection,
  loadDueRoleConnections,
  recordRoleConnectionPushed,
  storeRoleConnectionTokens,
} from '@spacecadet/db/queries/role-connections';
import { DiscordAPIError } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { memberApi, refreshMemberToken } from '../../discord-rest.ts';
import { ensureGuildSchedule } from '../../jobs/schedules.ts';
import type { JobContext } from '../../jobs/types.ts';
import { errorFields } from '../../logger.ts';
import { linkedRolesPushSchedule } from './schedule.ts';

/** Connections read per query. */
const PUSH_BATCH = 50;
/** Batches one run pushes at most; what is left waits for the next run (every few seconds). */
const MAX_BATCHES = 10;
/** A token this close to expiring is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;
export const PLATFORM_NAME = 'Space Cadet';

type Outcome = 'pushed' | 'dropped' | 'failed';

/** Discord no longer honours the member's grant (revoked, or the refresh token refused). */
const grantGone = (error: unknown) =>
  error instanceof DiscordAPIError &&
  (error.status === 401 || (error.status === 400 && error.url.includes('/oauth2/token')));

async function usableToken(deps: WorkerDeps, cipher: TokenCipher, row: DueRoleConnection): Promise<string> {
  const linked = deps.config.linkedRoles;
  if (row.tokenExpiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS || !row.refreshTokenEnc || !linked) {
    return cipher.decrypt(row.accessTokenEnc);
  }
  const clientId = deps.config.discordClientId ?? deps.client.application?.id ?? '';
  const fresh = await refreshMemberToken(
    deps.config,
    { id: clientId, secret: linked.clientSecret },
    cipher.decrypt(row.refreshTokenEnc),
  );
  const accessTokenEnc = cipher.encrypt(fresh.access_token);
  await storeRoleConnectionTokens(deps.db, row.userId, {
    accessTokenEnc,
    refreshTokenEnc: fresh.refresh_token ? cipher.encrypt(fresh.refresh_token) : row.refreshTokenEnc,
    expiresAt: new Date(Date.now() + fresh.expires_in * 1000),
  });
  row.accessTokenEnc = accessTokenEnc;
  return fresh.access_token;
}

/** Pushes one member's level and XP with their own token; records it, or drops a revoked link. */
async function pushOne(
  context: JobContext,
  cipher: TokenCipher,
  applicationId: string,
  row: DueRoleConnection,
): Promise<Outcome> {
  const { deps } = context;
  try {
    const token = await usableToken(deps, cipher, row);
    const guild = deps.client.guilds.cache.get(context.payload.guild_id);
    await memberApi(deps.config, token).users.updateApplicationRoleConnection(applicationId, {
      platform_name: PLATFORM_NAME,
      ...(guild ? { platform_username: guild.name.slice(0, 100) } : {}),
      metadata: { level: String(row.level), xp: String(row.xp) },
    });
    await recordRoleConnectionPushed(deps.db, row.userId, {
      level: row.level,
      xp: row.xp,
      dueAt: row.pushDueAt,
    });
    return 'pushed';
  } catch (error) {
    if (grantGone(error)) {
      await dropRoleConnection(deps.db, row.userId, row);
      context.log.info(
        { user: row.userId },
        'Linked Roles link dropped: Discord no longer honours its grant',
      );
      return 'dropped';
    }
    context.log.warn(
      { ...errorFields(error), user: row.userId },
      'Linked Roles push failed; retried next run',
    );
    return 'failed';
  }
}

/**
 * `linked-roles.push`: pushes the level and XP of the guild's linked members whose level
 * changed (marked due by the XP batch that changed it), in batches, each with the member's own
 * token (refreshed when it is about to expire). A mark is cleared only if no newer change came
 * meanwhile, so running twice pushes the same value again at most. A member who failed stays
 * due for the next run.
 */
export async function pushLinkedRoles(context: JobContext): Promise<JobResult> {
  const { deps } = context;
  const linked = deps.config.linkedRoles;
  if (!linked) return { ok: true, summary: 'Linked Roles pushes are off: DISCORD_CLIENT_SECRET is not set.' };
  const applicationId = deps.config.discordClientId ?? deps.client.application?.id;
  if (!applicationId) return { ok: true, summary: 'No application id yet: nothing pushed.' };
  // The API queues a push when a member links or picks a server: the server may be new to the
  // schedule, which the shard's full sync would add only up to SCHEDULE_FULL_SYNC_MS later.
  if (context.payload.requested_by !== null)
    await ensureGuildSchedule(deps, linkedRolesPushSchedule, context.payload.guild_id);
  const cipher = new TokenCipher(linked.sessionSecret);
  const counts: Record<Outcome, number> = { pushed: 0, dropped: 0, failed: 0 };
  const failed = new Set<string>();
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const due = (
      await loadDueRoleConnections(deps.db, context.payload.guild_id, PUSH_BATCH + failed.size)
    ).filter((row) => !failed.has(row.userId));
    if (due.length === 0) break;
    for (const row of due) {
      const outcome = await pushOne(context, cipher, applicationId, row);
      counts[outcome] += 1;
      if (outcome === 'failed') failed.add(row.userId);
    }
  }
  const summary = `Linked Roles: ${counts.pushed} pushed, ${counts.dropped} dropped, ${counts.failed} to retry.`;
  return { ok: true, summary };
}
