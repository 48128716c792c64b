import { z } from 'zod';
import { Snowflake } from '../common.ts';
import { SNOWFLAKE_DIGITS } from '../ids.ts';

/**
 * The one BullMQ queue every worker process took jobs from before jobs followed their shards: a
 * worker drains what an older version left there into the shard queues at start.
 */
export const LEGACY_JOB_QUEUE = 'spacecadet-jobs';

/**
 * The shard a guild's gateway events arrive on: Discord's formula, so a job queued for a guild
 * runs on the process whose gateway cache holds that guild (no REST reads of its roles or members).
 */
export function shardOfGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/**
 * The BullMQ queue of one shard's jobs, taken only by the process holding that shard. The braces
 * are a Redis Cluster hash tag (BullMQ forbids only ':' in a queue name): each queue's keys share
 * one slot, as BullMQ's scripts require, and different shards' queues spread over the nodes.
 */
export function jobQueueName(shard: number): string {
  return `${LEGACY_JOB_QUEUE}-{${shard}}`;
}

/**
 * How long finished jobs stay readable through `GET /api/jobs/:id` before BullMQ trims them.
 * The API sets it when it enqueues and the worker when it finishes, so both read it from here.
 */
export const JOB_RETENTION = {
  completed: { age: 24 * 3600, count: 1_000 },
  failed: { age: 7 * 24 * 3600, count: 5_000 },
} as const;

export const JOB_NAMES = [
  'color-roles.generate',
  'color-roles.post-panel',
  'color-roles.reset',
  'color-roles.repair',
  'color-roles.restore',
  'personality-roles.generate',
  'personality-roles.post',
  'personality-roles.refresh',
  'personality-roles.reset',
  'personality-roles.onboarding',
  'personality-roles.delete-roles',
  'personality-roles.restore',
  'leveling.sync-roles',
  'leveling.resend-overview',
  'leveling.daily-overview',
  'leveling.prune-leavers',
  'leveling.apply-rewards',
  'leveling.recompute-levels',
  'leveling.decay',
  'leveling.season-end',
  'linked-roles.push',
  'reaction-roles.post-panel',
  'role-menus.post',
  'role-menus.repair',
  'role-menus.reconcile',
  'history.prune',
  'member-picks.apply',
  'guild-data.delete',
  'guild-data.purge',
  'temp-roles.grant',
  'temp-roles.expire',
  'auto-roles.give',
  'auto-roles.purge-sticky',
  'welcome.greet',
  'welcome.raid-batch',
  'welcome.goodbye',
] as const;
export const JobName = z.enum(JOB_NAMES);
export type JobName = z.infer<typeof JobName>;

/**
 * The feature whose guild lock a job runs under (one job per feature and guild at a time): the
 * job name's part before the dot, except where two prefixes act on the same things. The
 * reaction panels' Post / Update and the role menus' repair and reconcile edit the same
 * messages, so they share the `role-menus` lock.
 */
export function jobLockFeature(name: JobName): string {
  const prefix = name.slice(0, name.indexOf('.'));
  return prefix === 'reaction-roles' ? 'role-menus' : prefix;
}

/**
 * The name of the lock a job runs under (`guildJobLockKey`'s feature part): its feature's, or for
 * a per-member job its feature's and member's, so two members' jobs do not wait for each other.
 */
export function jobLockName(name: JobName, payload: Pick<GuildJobPayload, 'member'>): string {
  const feature = jobLockFeature(name);
  return payload.member ? `${feature}.${payload.member.user_id}` : feature;
}

/**
 * The id of a member's auto-roles job for one join (BullMQ forbids ':', hence dots): the same for
 * every event of that join (the add, the end of screening), so a join is given roles once.
 */
export function autoRolesJobIdFor(guildId: string, userId: string, joinedAt: string): string {
  return `auto-roles.give.${guildId}.${userId}.${Date.parse(joinedAt) || 0}`;
}

/**
 * The id of one API request (its `x-request-id`): the API's own UUID, or a client's that is short
 * and plain enough to echo in a header and write to logs unchanged.
 */
export const RequestId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,64}$/, 'must be 1 to 64 letters, digits or ._:-');
export type RequestId = z.infer<typeof RequestId>;

/**
 * Every job acts on one guild; `requested_by` is the dashboard user (null for schedules) and
 * `request_id` the API request that queued it, so the worker's log lines for the job can be
 * found from it (absent for schedules and the worker's own follow-ups).
 */
export const GuildJobPayload = z.object({
  guild_id: Snowflake,
  requested_by: Snowflake.nullable(),
  request_id: RequestId.optional(),
  /**
   * The history entry of the request that queued the job: a destructive job (a reset, a prune)
   * stores what it removes there, for the undo. Absent for schedules and follow-ups.
   */
  history_entry_id: z.number().int().optional(),
  /**
   * Set by the worker while the job waits for Discord (or the Discord proxy) to answer again:
   * when the wait began (ms since the epoch), how many retries it made, and the job's progress
   * then. Cleared once the job moves past that progress; `GET /api/jobs/:id` reports it as
   * `waiting_for_discord`.
   */
  discord_outage: z
    .object({
      since: z.number().int().nonnegative(),
      retries: z.number().int().nonnegative(),
      progress: z.number().min(0).max(100),
    })
    .optional(),
  /**
   * The member a per-member job acts on (`auto-roles.give`): such a job runs under a lock of its
   * own member (`jobLockKeyFor`), so a raid's joins are handled side by side, not one at a time.
   */
  member: z
    .object({
      user_id: Snowflake,
      joined_at: z.string().min(1).max(40),
      /**
       * Whether the member is a bot, as the gateway said when it queued the job (past screening):
       * the job then gives the roles without reading the member again. Absent: it reads them.
       */
      bot: z.boolean().optional(),
    })
    .optional(),
});
export type GuildJobPayload = z.infer<typeof GuildJobPayload>;

/**
 * Jobs that publish what another job makes (the color panel shows the roles Generate Roles
 * creates): such a job waits while its predecessor in the same guild is still to run or
 * running (waiting for Discord, say), and fails rather than publish when the predecessor failed
 * after the follow-up was queued.
 */
export const JOB_PREDECESSORS: Partial<Record<JobName, readonly JobName[]>> = {
  'color-roles.post-panel': ['color-roles.generate'],
  'personality-roles.post': ['personality-roles.generate'],
};

/**
 * How long a job keeps waiting for Discord (or the Discord proxy) to answer before it fails:
 * an outage of this long is not a blip, and the admin should hear of it.
 */
export const DISCORD_OUTAGE_GIVE_UP_MS = 15 * 60_000;

/**
 * Deterministic per guild and action, so a double click collapses into one job. BullMQ forbids
 * ':' in custom ids, hence the dots. The API replaces a finished job of the same id when the
 * action is asked for again.
 */
export function jobIdFor(name: JobName, guildId: string): string {
  return `${name}.${guildId}`;
}

/**
 * The id of a guild's BullMQ job scheduler for a scheduled job (the personality refresh, the
 * daily overview): deterministic, so creating it twice keeps one, and removable by whoever
 * knows the guild. Same shape as jobIdFor, which BullMQ's scheduler ids also allow.
 */
export function jobSchedulerIdFor(name: JobName, guildId: string): string {
  return `schedule.${jobIdFor(name, guildId)}`;
}

/**
 * The id of the repair the worker queues itself when an admin deleted a role or message the
 * bot manages (the feature's repair job, e.g. `color-roles.repair.<guild>.repair`): one id per
 * guild and job, so a burst of deletes joins one pending repair. Not a `jobIdFor` id: no
 * dashboard button follows or re-runs it.
 */
export function repairJobIdFor(name: JobName, guildId: string): string {
  return `${jobIdFor(name, guildId)}${REPAIR_JOB_SUFFIX}`;
}
export const REPAIR_JOB_SUFFIX = '.repair';

/** Inverse of jobIdFor; null for ids that are not ours. */
export function parseJobId(jobId: string): { name: JobName; guildId: string } | null {
  const match = new RegExp(`^(.+)\\.(${SNOWFLAKE_DIGITS})$`).exec(jobId);
  if (!match) return null;
  const name = JobName.safeParse(match[1]);
  return name.success && match[2] ? { name: name.data, guildId: match[2] } : null;
}

/**
 * A failed job's reason is stored in BullMQ as `code: message`: the worker writes it with
 * jobFailureReason and the API splits it with parseJobFailure, so admins read only the message.
 */
export function jobFailureReason(code: string, message: string): string {
  return `${code}: ${message}`;
}

export function parseJobFailure(reason: string): { code: string | null; message: string } {
  const match = /^([a-z][a-z0-9_]*): ([\s\S]+)$/.exec(reason);
  return match?.[1] && match[2] ? { code: match[1], message: match[2] } : { code: null, message: reason };
}

/** What a job returns when the feature behind it is not built yet. */
export const NOT_SUPPORTED = 'not_supported';

export const JobResult = z.object({
  ok: z.boolean(),
  summary: z.string(),
  created: z.number().int().optional(),
  deleted: z.number().int().optional(),
  warnings: z.array(z.string()).optional(),
});
export type JobResult = z.infer<typeof JobResult>;
