import { jobQueueName, shardOfGuild } from '@spacecadet/contract';

/** What JobQueues needs of a queue: closing it. BullMQ's Queue; typed structurally. */
export interface ClosableQueue {
  close(): Promise<void>;
}

/**
 * The job queues of a deployment, one per gateway shard (`jobQueueName`), each opened on first
 * use: a guild's jobs go to its shard's queue (`forGuild`), which only the process holding that
 * shard takes jobs from, so a job reads the gateway cache rather than Discord's REST API. The
 * API and the worker each build one from the same SHARD_COUNT; `open` makes the BullMQ Queue
 * (this package has no BullMQ of its own).
 */
export class JobQueues<Q extends ClosableQueue> {
  private readonly opened = new Map<number, Q>();

  constructor(
    readonly shardCount: number,
    private readonly open: (name: string, shard: number) => Q,
  ) {}

  /** The queue of one shard (0..shardCount-1). */
  forShard(shard: number): Q {
    if (!Number.isInteger(shard) || shard < 0 || shard >= this.shardCount) {
      throw new RangeError(`shard ${shard} is not below SHARD_COUNT ${this.shardCount}`);
    }
    let queue = this.opened.get(shard);
    if (!queue) {
      queue = this.open(jobQueueName(shard), shard);
      this.opened.set(shard, queue);
    }
    return queue;
  }

  /** The queue of the guild's shard. */
  forGuild(guildId: string): Q {
    return this.forShard(shardOfGuild(guildId, this.shardCount));
  }

  /** Every shard's queue (the queue board, the metrics' depth), opening those not open yet. */
  all(): Q[] {
    return Array.from({ length: this.shardCount }, (_, shard) => this.forShard(shard));
  }

  /** Closes the queues opened so far. */
  async close(): Promise<void> {
    const queues = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(queues.map((queue) => queue.close()));
  }
}

/** Sums the job counts of several queues: the depth a metrics scrape reports for all of them. */
export function countAcross<S extends string>(
  queues: () => readonly { getJobCounts(...states: S[]): Promise<Record<string, number>> }[],
): { getJobCounts(...states: S[]): Promise<Record<string, number>> } {
  return {
    async getJobCounts(...states) {
      const totals: Record<string, number> = {};
      for (const counts of await Promise.all(queues().map((queue) => queue.getJobCounts(...states)))) {
        for (const [state, count] of Object.entries(counts)) totals[state] = (totals[state] ?? 0) + count;
      }
      return totals;
    },
  };
}
