import type { JobResult } from '@spacecadet/contract';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerDeps } from '../deps.ts';
import { errorFields } from '../logger.ts';
import { createJobWorker, type JobHandlers } from './job-worker.ts';

/**
 * The job consumers of this process: one BullMQ worker per shard it holds, each on that shard's
 * queue. A process holding no shard (a standby) takes no job; one that takes a shard over starts
 * taking that shard's jobs then, including those the stopped holder left running (BullMQ's
 * stalled check, within JOB_LOCK_DURATION_MS).
 */
export class ShardJobWorkers {
  private readonly workers = new Map<number, Worker<unknown, JobResult>>();
  private closed = false;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly connection: Redis,
    private readonly handlers: JobHandlers,
    private readonly instance: string,
  ) {}

  /** Starts taking these shards' jobs (those not taken yet); resolves once each worker listens. */
  async consume(shards: readonly number[]): Promise<void> {
    const { deps } = this;
    const ready: Promise<void>[] = [];
    for (const shard of shards) {
      if (this.closed || this.workers.has(shard)) continue;
      const worker = createJobWorker(deps, this.connection, this.handlers, this.instance, shard);
      this.workers.set(shard, worker);
      deps.metrics?.watchJobs(worker);
      void worker
        .run()
        .catch((error: unknown) => deps.logger.error({ ...errorFields(error), shard }, 'job worker stopped'));
      ready.push(worker.waitUntilReady().then(() => {}));
    }
    await Promise.all(ready);
    if (ready.length > 0)
      deps.logger.info({ shards: this.shards() }, "taking the jobs of this process's shards");
  }

  /** The shards whose jobs this process takes. */
  shards(): number[] {
    return [...this.workers.keys()].sort((a, b) => a - b);
  }

  /** Stops taking jobs; resolves once the active ones finished. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.workers.values()].map((worker) => worker.close()));
  }
}
