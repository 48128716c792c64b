/** A queued job as the API reports it. */
import { z } from 'zod';
import { Text } from '../inputs.ts';

const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed', 'unknown'] as const;
export const JobStatus = z
  .object({
    id: z.string(),
    name: z.string(),
    guild_id: z.string(),
    state: z.enum(JOB_STATES),
    progress: z.number().min(0).max(100),
    result: z.unknown().optional(),
    /** What went wrong, in words for the admin; null unless failed. */
    error: z.string().nullable(),
    /** The machine-readable failure code (e.g. role_cap_reached), when the worker gave one. */
    error_code: z.string().nullable().optional(),
    /**
     * True while the job is being recovered: the worker running it stopped (killed, crashed,
     * lost Redis) and another worker is taking it over. Absent from older servers: false.
     */
    recovering: z.boolean().default(false),
    /**
     * True while the job waits for Discord (or the Discord proxy) to answer again: it retries
     * with backoff, for DISCORD_OUTAGE_GIVE_UP_MS, and goes on where it stopped. Absent from
     * older servers: false.
     */
    waiting_for_discord: z.boolean().default(false),
  })
  .meta({ id: 'JobStatus' });
export type JobStatus = z.infer<typeof JobStatus>;

/**
 * Job ids are ours (`jobIdFor`, e.g. `color-roles.generate.<guild>`, or BullMQ's numbers): at
 * most 100 characters, as Fastify's default `maxParamLength` answers a longer path segment 400.
 */
export const JobParams = z.object({
  jobId: Text.min(1)
    .max(100)
    .regex(/^[A-Za-z0-9._-]+$/, 'A job id is made of letters, digits, dots and dashes'),
});
