import type { JobResult } from '@spacecadet/contract';
import {
  type PersonalityLastRefresh,
  personalityLastRefreshKey,
  personalityLastRepairKey,
} from '@spacecadet/contract';
import {
  loadPersonalityQuestions,
  type StoredPersonalityQuestion,
} from '@spacecadet/db/queries/personality-roles';
import type { Redis } from 'ioredis';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { guildRolesView, guildRolesViewByRest } from '../../roles/guild-roles.ts';
import { ensureChannelAccess, liveRoleCheck } from './channel-access.ts';
import { pruneOldAnswers, workOffCleanup } from './housekeeping.ts';
import { storedMessagesCurrent, syncPersonalityMessages } from './messages.ts';
import { type OnboardingOutcome, syncPersonalityOnboarding } from './onboarding.ts';
import { ensurePersonalityRoles, withWarnings } from './roles.ts';
import { matchRefreshSchedule } from './schedule.ts';
import { loadPersonalitySetup } from './setup-cache.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `personality-roles.refresh`, every 5 minutes per configured guild and after each change an
 * admin makes: recreates deleted roles, and once the messages were posted, re-posts deleted
 * ones, re-edits stale ones and removes disabled questions' ones. Records what it repaired for
 * the dashboard. With "Also ask in Discord Onboarding" on it also fixes our Onboarding prompts (a
 * recreated role, a toggled question), and with it off removes prompts an earlier run could not.
 * With nothing to repair it makes no Discord write, and reads only the channel's latest messages
 * (and the Onboarding): roles come from the gateway cache when this process holds the guild.
 */
export async function refreshPersonalityRoles(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const { config, questions } = await loadPersonalitySetup(context.deps, guildId, {
    fresh: context.payload.requested_by !== null,
  });
  if (!config.configured) {
    await matchRefreshSchedule(context.deps, guildId, false);
    return { ok: true, summary: 'Personality roles are not set up here: nothing to refresh.' };
  }
  const startedAt = Date.now();
  try {
    // What an admin's edit took out (a removed option's role, a channel no longer opened) goes first.
    const cleanup = await workOffCleanup(context);
    // The cache can lag a role created a moment ago: Discord is asked before recreating anything.
    const view = await guildRolesView(client, guildId);
    const roles = await ensurePersonalityRoles(context, questions, view, {
      reread: () => guildRolesViewByRest(client, guildId),
    });
    const fresh = roles.created + roles.adopted > 0 ? await loadPersonalityQuestions(db, guildId) : questions;
    const access = await ensureChannelAccess(context, fresh, liveRoleCheck(view, questions, fresh));
    await pruneOldAnswers(context.deps, guildId);
    const channelId = config.messagesPosted ? config.assignChannelId : null;
    const messages =
      channelId && !storedMessagesCurrent(client, guildId, fresh, channelId)
        ? await syncPersonalityMessages(context, fresh, channelId)
        : null;
    const onboarding =
      config.onboardingEnabled || fresh.some((q) => q.onboardingPromptId)
        ? await refreshOnboarding(context, fresh, config.onboardingEnabled)
        : null;
    const onboardingFixed = onboarding?.outcome
      ? onboarding.outcome.added + onboarding.outcome.updated + onboarding.outcome.removed
      : 0;
    const repairs = [
      [roles.created + roles.adopted, 'role', 'created'],
      [roles.givenBack, 'member', 'given their role back'],
      [access.opened, 'channel', 'opened to its role'],
      [cleanup.roles + cleanup.messages + cleanup.prompts + cleanup.overwrites, 'removed item', 'cleaned up'],
      [messages?.reposted ?? 0, 'message', 're-posted'],
      [messages?.posted ?? 0, 'message', 'posted'],
      [messages?.edited ?? 0, 'message', 'updated'],
      [messages?.moved ?? 0, 'message', 'moved to the new channel'],
      [messages?.deleted ?? 0, 'message', 'removed'],
      [onboardingFixed, 'Onboarding question', 'updated'],
    ] as const;
    const repaired = repairs.reduce((n, [count]) => n + count, 0);
    const said = repairs.filter(([n]) => n > 0).map(([n, word, what]) => `${plural(n, word)} ${what}`);
    if (onboarding?.problem) said.push(`Onboarding not updated: ${onboarding.problem}`);
    const summary = said.length > 0 ? `${said.join(', ').replace(/\.$/, '')}.` : 'Everything was in place.';
    // What keeps members from getting their roles shows on the page too, not only in a job result.
    const [firstWarning, ...more] = roles.warnings;
    const recorded = firstWarning
      ? `${summary} ${firstWarning}${more.length > 0 ? ` (and ${plural(more.length, 'more role')} like it)` : ''}`
      : summary;
    await recordRefresh(context.deps.redis, guildId, { summary: recorded, repaired });
    // A refresh an admin's change asked for (init, a toggle) makes sure the 5-minute scheduler
    // exists; a run with no requester (the scheduler's own, a member's click) skips the Redis
    // read: the scheduler made it, or the worker's start syncs every configured guild's.
    if (context.payload.requested_by !== null) await matchRefreshSchedule(context.deps, guildId, true);
    context.log.info({ repaired, startedAt, ms: Date.now() - startedAt }, 'personality refresh finished');
    return withWarnings({ ok: true, summary }, [
      ...cleanup.warnings,
      ...roles.warnings,
      ...access.warnings,
      ...(messages?.warnings ?? []),
      ...(onboarding?.outcome?.warnings ?? []),
      ...(onboarding?.problem ? [`Onboarding not updated: ${onboarding.problem}`] : []),
    ]);
  } catch (error) {
    // The admin sees why the last refresh did not repair anything (a deleted channel, say).
    if (error instanceof JobFailure) {
      await recordRefresh(context.deps.redis, guildId, { summary: `Failed: ${error.detail}`, repaired: 0 });
    }
    throw error;
  }
}

/**
 * The Onboarding part of a refresh: what Discord refuses (a missing permission, say) does not
 * undo the roles and messages repaired before it; it is said in the summary instead.
 */
async function refreshOnboarding(
  context: JobContext,
  questions: readonly StoredPersonalityQuestion[],
  enabled: boolean,
): Promise<{ outcome: OnboardingOutcome | null; problem: string | null }> {
  try {
    return { outcome: await syncPersonalityOnboarding(context, questions, enabled), problem: null };
  } catch (error) {
    if (error instanceof JobFailure) return { outcome: null, problem: error.detail };
    throw error;
  }
}

/** Kept a while after the guild's last refresh, so a guild the bot left does not keep it forever. */
const LAST_REFRESH_TTL_SECONDS = 7 * 24 * 3600;

/**
 * What the dashboard shows as the last refresh (`personalityLastRefreshKey`), and, for a run that
 * repaired something, as the last repair (`personalityLastRepairKey`), which a later run that
 * found everything in place leaves alone.
 */
async function recordRefresh(redis: Redis, guildId: string, outcome: { summary: string; repaired: number }) {
  const record = JSON.stringify({
    ran_at: new Date().toISOString(),
    ...outcome,
  } satisfies PersonalityLastRefresh);
  const last = personalityLastRefreshKey(guildId);
  // Most runs repair nothing: one SET, without a MULTI's pipeline and its two extra commands.
  if (outcome.repaired === 0) {
    await redis.set(last, record, 'EX', LAST_REFRESH_TTL_SECONDS);
    return;
  }
  await redis
    .multi()
    .set(last, record, 'EX', LAST_REFRESH_TTL_SECONDS)
    .set(personalityLastRepairKey(guildId), record, 'EX', LAST_REFRESH_TTL_SECONDS)
    .exec();
}
