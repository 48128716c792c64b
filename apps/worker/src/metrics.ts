import { JOB_NAMES, type JobResult } from '@spacecadet/contract';
import {
  type CountableQueue,
  type MetricsListen,
  type MetricsServer,
  queueDepthGauge,
  startMetricsServer,
} from '@spacecadet/runtime/metrics-server';
import type { Job, Worker } from 'bullmq';
import {
  type APIRequest,
  type Client,
  InteractionResponseType,
  RESTEvents,
  type ResponseLike,
  SnowflakeUtil,
  Status,
} from 'discord.js';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { WorkerConfig } from './env.ts';
import { errorFields, type Logger } from './logger.ts';

/** Job names as labels: a name no handler knows (a stray producer) is one `unknown` series, not many. */
const KNOWN_JOB_NAMES: ReadonlySet<string> = new Set(JOB_NAMES);

/** @discordjs/rest's bucket route for an interaction's first answer (its path carries the id). */
const INTERACTION_CALLBACK_ROUTE = '/interactions/:id/:token/callback';

/** The `kind` label of an interaction answer: the type of the first answer Discord got. */
const ANSWER_KINDS: Readonly<Partial<Record<number, string>>> = {
  [InteractionResponseType.ChannelMessageWithSource]: 'reply',
  [InteractionResponseType.DeferredChannelMessageWithSource]: 'deferred_reply',
  [InteractionResponseType.DeferredMessageUpdate]: 'deferred_update',
  [InteractionResponseType.UpdateMessage]: 'update',
  [InteractionResponseType.ApplicationCommandAutocompleteResult]: 'autocomplete',
  [InteractionResponseType.Modal]: 'modal',
};

function answerKind(body: unknown): string {
  const type = typeof body === 'object' && body !== null && 'type' in body ? body.type : undefined;
  return (typeof type === 'number' ? ANSWER_KINDS[type] : undefined) ?? 'other';
}

export interface MetricsSources {
  client: Client;
  queue: CountableQueue;
  logger: Logger;
}

/** The worker's metrics, or null (nothing hooked, nothing counted) when METRICS_PORT is unset. */
export function workerMetricsFor(config: WorkerConfig, sources: MetricsSources): WorkerMetrics | null {
  const { port, host, token } = config.metrics;
  if (port === null) return null;
  // With SHARD_IDS=auto the shards are known once claimed: the client's list covers them then.
  const ids = config.shards?.ids ?? [0];
  return new WorkerMetrics({ port, host, token }, sources, ids === 'auto' ? [] : ids);
}

/**
 * The gauges read when /metrics is scraped: each shard's heartbeat round trip and whether it is
 * connected (every shard this process runs), and the job queue's depth.
 */
function registerGauges(
  registers: Registry[],
  { client, queue, logger }: MetricsSources,
  shardIds: readonly number[],
): void {
  const shardsOf = () => new Set([...shardIds, ...client.ws.shards.keys()]);
  new Gauge({
    name: 'gateway_latency_seconds',
    help: 'Gateway heartbeat round trip by shard (absent until the first heartbeat was acknowledged)',
    labelNames: ['shard'] as const,
    registers,
    collect() {
      this.reset();
      for (const [id, shard] of client.ws.shards) {
        if (shard.ping >= 0) this.set({ shard: String(id) }, shard.ping / 1000);
      }
    },
  });
  new Gauge({
    name: 'gateway_shard_up',
    help: "1 when the shard's gateway connection is ready, else 0, for every shard this process runs",
    labelNames: ['shard'] as const,
    registers,
    collect() {
      this.reset();
      for (const id of shardsOf()) {
        this.set({ shard: String(id) }, client.ws.shards.get(id)?.status === Status.Ready ? 1 : 0);
      }
    },
  });
  new Gauge({
    ...queueDepthGauge(queue, (error) =>
      logger.warn(errorFields(error), 'queue depth not read for /metrics'),
    ),
    registers,
  });
}

/**
 * The worker's Prometheus metrics (one registry per worker, so tests can run several in one
 * process). Built only when METRICS_PORT is set; `startWorker` hooks it to the job worker and
 * the Discord client, and leveling counts its messages through `deps.metrics`.
 */
export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly logger: Logger;
  private readonly xpAwarded: Counter.Internal;
  private readonly xpOnCooldown: Counter.Internal;
  private readonly jobs: Counter<'job_name' | 'outcome'>;
  private readonly jobDuration: Histogram<'job_name'>;
  private readonly answers: Histogram<'kind'>;
  private readonly rateLimited: Counter<'scope'>;
  private readonly rateLimitWaits: Counter<'global'>;
  private readonly scheduleChecks: Counter<'sync'>;
  private readonly scheduleRows: Counter.Internal;

  constructor(
    private readonly listenAt: MetricsListen,
    { client, queue, logger }: MetricsSources,
    /** The shards this process runs: each has a sample even while it is not connected. */
    shardIds: readonly number[],
  ) {
    this.logger = logger;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'spacecadet_worker_' });

    const xpMessages = new Counter({
      name: 'xp_messages_total',
      help: 'Chat messages leveling counted: XP awarded, or none because the member was on cooldown',
      labelNames: ['outcome'] as const,
      registers,
    });
    // Bound once: the XP path runs for every chat message.
    this.xpAwarded = xpMessages.labels({ outcome: 'awarded' });
    this.xpOnCooldown = xpMessages.labels({ outcome: 'cooldown' });

    this.jobs = new Counter({
      name: 'jobs_total',
      help: 'Job attempts by job name and outcome: completed, retried (failed, will run again) or failed (for good)',
      labelNames: ['job_name', 'outcome'] as const,
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'job_duration_seconds',
      help: 'How long a job attempt ran, by job name (processedOn to finishedOn)',
      labelNames: ['job_name'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    });
    this.answers = new Histogram({
      name: 'interaction_answer_seconds',
      help: "From an interaction's creation (its snowflake) to Discord's answer to its first response, by the kind of response",
      labelNames: ['kind'] as const,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 5],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'discord_rest_rate_limited_total',
      help: 'Discord REST answers with status 429, by X-RateLimit-Scope (user, shared, global)',
      labelNames: ['scope'] as const,
      registers,
    });
    this.rateLimitWaits = new Counter({
      name: 'discord_rest_rate_limit_waits_total',
      help: 'Requests discord.js held back because a rate limit was known to be exhausted (no 429 sent)',
      labelNames: ['global'] as const,
      registers,
    });

    this.scheduleChecks = new Counter({
      name: 'job_schedule_checks_total',
      help: "Checks of the held shards' job schedulers: full (every configured guild read) or cheap (time-bound schedules only)",
      labelNames: ['sync'] as const,
      registers,
    });
    this.scheduleRows = new Counter({
      name: 'job_schedule_rows_read_total',
      help: 'Guild rows the job scheduler checks read from Postgres (grows with changes and full syncs, not every minute with servers)',
      registers,
    }).labels();

    registerGauges(registers, { client, queue, logger }, shardIds);

    client.rest.on(RESTEvents.Response, (request, response) => this.onRestResponse(request, response));
    client.rest.on(RESTEvents.RateLimited, (info) =>
      this.rateLimitWaits.inc({ global: String(info.global) }),
    );
  }

  /** A chat message leveling counted (`awarded`: it earned XP; else the member was on cooldown). */
  xpMessage(awarded: boolean): void {
    (awarded ? this.xpAwarded : this.xpOnCooldown).inc();
  }

  /** One check of the held shards' job schedulers: `full` when a shard was synced in full. */
  scheduleCheck(full: boolean, rowsRead: number): void {
    this.scheduleChecks.inc({ sync: full ? 'full' : 'cheap' });
    this.scheduleRows.inc(rowsRead);
  }

  /** Counts and times every job attempt the worker finishes. */
  watchJobs(worker: Worker<unknown, JobResult>): void {
    worker.on('completed', (job) => this.onJobFinished(job, 'completed'));
    worker.on('failed', (job) => {
      // No job: BullMQ failed one it could no longer load (nothing to label it with).
      if (!job) return;
      // finishedOn is set only when the job failed for good; a retried attempt has none.
      this.onJobFinished(job, job.finishedOn ? 'failed' : 'retried');
    });
  }

  /** Serves `/metrics` until the returned server is closed. */
  async listen(): Promise<MetricsServer> {
    const server = await startMetricsServer(this.registry, this.listenAt, (error) =>
      this.logger.error(errorFields(error), 'metrics collection failed'),
    );
    this.logger.info({ url: server.url, token: this.listenAt.token !== null }, 'metrics listening');
    return server;
  }

  private onJobFinished(job: Job<unknown, JobResult>, outcome: 'completed' | 'failed' | 'retried'): void {
    const jobName = KNOWN_JOB_NAMES.has(job.name) ? job.name : 'unknown';
    this.jobs.inc({ job_name: jobName, outcome });
    if (job.processedOn) {
      const finishedOn = job.finishedOn ?? Date.now();
      this.jobDuration.observe({ job_name: jobName }, Math.max(0, finishedOn - job.processedOn) / 1000);
    }
  }

  private onRestResponse(request: APIRequest, response: ResponseLike): void {
    if (response.status === 429) {
      this.rateLimited.inc({ scope: response.headers.get('x-ratelimit-scope') ?? 'user' });
      return;
    }
    // A 5xx is retried by discord.js; the retry's answer is the one that counts.
    if (request.route !== INTERACTION_CALLBACK_ROUTE || response.status >= 500) return;
    const interactionId = String(request.path).split('/')[2];
    if (!interactionId) return;
    const createdAt = SnowflakeUtil.timestampFrom(interactionId);
    this.answers.observe({ kind: answerKind(request.data.body) }, Math.max(0, Date.now() - createdAt) / 1000);
  }
}
