import type { JobName } from '@spacecadet/contract';
import { Events } from 'discord.js';
import type { WorkerDeps } from '../deps.ts';
import type { ComponentRoute, SlashCommand } from '../interactions/types.ts';
import { checkSchedules, type FeatureSchedule, removeGuildSchedule } from '../jobs/schedules.ts';
import type { JobHandler } from '../jobs/types.ts';
import { errorFields } from '../logger.ts';
import { type GatewayHandler, onGateway, type WorkerFeature } from './feature.ts';

/**
 * Registers a list of features the same way for each: their jobs, components, commands, gateway
 * handlers, schedules and shutdown hooks. The worker knows features only through this.
 */
export interface FeatureHost {
  jobs: ReadonlyMap<JobName, JobHandler>;
  components: readonly ComponentRoute[];
  commands: readonly SlashCommand[];
  /** Subscribes every feature's gateway handlers, plus the host's own (schedules of a guild left). */
  attachGateway(deps: WorkerDeps): void;
  /**
   * Creates and removes the schedulers of these shards' queues so they match each schedule's
   * guilds (`checkSchedules`: in full when due or `full`, else only what changes with time).
   */
  syncSchedules(deps: WorkerDeps, shards: readonly number[], full?: boolean): Promise<void>;
  /** Every feature's start hook, once the client is ready; one failing does not keep the others from running. */
  start(deps: WorkerDeps): Promise<void>;
  /** Every feature's shutdown hook; one failing does not keep the others from running. */
  shutdown(deps: WorkerDeps): Promise<void>;
}

export function hostFeatures(features: readonly WorkerFeature[]): FeatureHost {
  const names = new Set<string>();
  const jobs = new Map<JobName, JobHandler>();
  for (const feature of features) {
    if (names.has(feature.name)) throw new Error(`two features are named ${feature.name}`);
    names.add(feature.name);
    for (const [name, handler] of Object.entries(feature.jobs ?? {}) as Array<[JobName, JobHandler]>) {
      if (jobs.has(name)) throw new Error(`job ${name} has two handlers (the second in ${feature.name})`);
      jobs.set(name, handler);
    }
  }
  const schedules = features.flatMap((feature) => feature.schedules ?? []);
  /** When each shard's schedulers were last synced in full by this process. */
  const scheduleState = { syncedAt: new Map<number, number>() };
  for (const schedule of schedules) {
    if (!jobs.has(schedule.job)) throw new Error(`schedule of ${schedule.job} has no job handler`);
  }
  const commands = features.flatMap((feature) => feature.commands ?? []);
  const commandNames = commands.map((command) => command.data.name);
  const duplicate = commandNames.find((name, index) => commandNames.indexOf(name) !== index);
  if (duplicate) throw new Error(`slash command /${duplicate} is declared twice`);

  return {
    jobs,
    components: features.flatMap((feature) => feature.components ?? []),
    commands,
    attachGateway(deps) {
      // Every feature's handler is its own listener, so one event (`raw`) may have more than
      // Node's default 10 by design: the limit is raised to what the features declare, plus
      // room for the worker's own listeners.
      const perEvent = new Map<string, number>();
      for (const handler of features.flatMap((feature) => feature.events ?? [])) {
        perEvent.set(handler.event, (perEvent.get(handler.event) ?? 0) + 1);
      }
      const most = Math.max(0, ...perEvent.values());
      deps.client.setMaxListeners(Math.max(deps.client.getMaxListeners(), most + 10));
      for (const feature of features) {
        for (const handler of feature.events ?? []) subscribe(deps, feature.name, handler);
      }
      if (schedules.length > 0) subscribe(deps, 'schedules', removeSchedulesOfLeftGuild(schedules));
    },
    async syncSchedules(deps, shards, full = false) {
      const checked = await checkSchedules(deps, schedules, shards, scheduleState, full);
      const { created, removed, rowsRead, fullShards } = checked;
      // Each check's Postgres rows (one line a minute): what `pnpm bench scale` reports per process.
      deps.logger.info({ created, removed, rowsRead, fullShards, shards }, 'job schedulers checked');
      deps.metrics?.scheduleCheck(fullShards.length > 0, rowsRead);
    },
    async start(deps) {
      for (const feature of features) {
        if (!feature.start) continue;
        try {
          await feature.start(deps);
        } catch (error) {
          deps.logger.error({ ...errorFields(error), feature: feature.name }, 'feature start hook failed');
        }
      }
    },
    async shutdown(deps) {
      for (const feature of features) {
        if (!feature.shutdown) continue;
        try {
          await feature.shutdown(deps);
        } catch (error) {
          deps.logger.error({ ...errorFields(error), feature: feature.name }, 'feature shutdown hook failed');
        }
      }
    },
  };
}

/**
 * The one error wrapper of every gateway handler: a throw or a rejection is logged with the
 * feature and what it was doing, and never becomes an unhandled rejection.
 */
function subscribe(deps: WorkerDeps, feature: string, handler: GatewayHandler): void {
  const fail = (error: unknown) =>
    deps.logger.error({ ...errorFields(error), feature, event: handler.event }, `${handler.what} failed`);
  const listener = (...args: unknown[]) => {
    try {
      const done = (handler.handle as (deps: WorkerDeps, ...rest: unknown[]) => unknown)(deps, ...args);
      if (done instanceof Promise) done.catch(fail);
    } catch (error) {
      fail(error);
    }
  };
  deps.client.on(handler.event as string, listener);
}

/** A guild the bot left keeps no schedulers: nothing could run there any more. */
function removeSchedulesOfLeftGuild(schedules: readonly FeatureSchedule[]): GatewayHandler {
  return onGateway(
    Events.GuildDelete,
    'remove the schedulers of a guild the bot left',
    async (deps, guild) => {
      await Promise.all(schedules.map((schedule) => removeGuildSchedule(deps, schedule, guild.id)));
    },
  );
}
