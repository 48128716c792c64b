import type { JobName } from '@spacecadet/contract';
import type { ClientEvents, GatewayDispatchPayload } from 'discord.js';
import type { WorkerDeps } from '../deps.ts';
import type { ComponentRoute, SlashCommand } from '../interactions/types.ts';
import type { FeatureSchedule } from '../jobs/schedules.ts';
import type { JobHandler } from '../jobs/types.ts';

/**
 * Everything one feature brings to the worker, declared in one object exported by the feature's
 * folder (`features/<name>/index.ts`) and listed once in `features/index.ts`. The worker
 * registers every feature the same way (`feature-host.ts`) and knows none by name.
 */
export interface WorkerFeature {
  /** Short and unique; names the feature in logs. */
  name: string;
  /** Handlers of the contract's job names this feature owns (each name has exactly one owner). */
  jobs?: Partial<Record<JobName, JobHandler>>;
  /** Panel components, found by the custom_id prefix the feature owns. */
  components?: readonly ComponentRoute[];
  /** Slash commands, registered globally at start. */
  commands?: readonly SlashCommand[];
  /** Gateway event handlers; a throw or rejection is logged by the host, never left unhandled. */
  events?: readonly GatewayHandler[];
  /** Per-guild BullMQ job schedulers this feature runs (see `FeatureSchedule`). */
  schedules?: readonly FeatureSchedule[];
  /**
   * Runs once at start, when the client is ready (after the slash commands are registered):
   * publish what Discord keeps per application. A failure is logged, not fatal.
   */
  start?: (deps: WorkerDeps) => Promise<void>;
  /**
   * Runs once on shutdown, after the last job finished and the gateway closed (no event can
   * arrive any more) and before Postgres and Redis close: flush buffered writes here.
   */
  shutdown?: (deps: WorkerDeps) => Promise<void>;
}

/** discord.js' events plus `raw`, the gateway packet as received (before discord.js handles it). */
export type GatewayEvents = ClientEvents & { raw: [packet: GatewayDispatchPayload, shardId: number] };

export interface GatewayHandler<E extends keyof GatewayEvents = keyof GatewayEvents> {
  event: E;
  /** What the handler does, for the log line when it fails ("mark leaver"). */
  what: string;
  handle(deps: WorkerDeps, ...args: GatewayEvents[E]): void | Promise<void>;
}

/** A gateway handler, typed by its event. */
export function onGateway<E extends keyof GatewayEvents>(
  event: E,
  what: string,
  handle: (deps: WorkerDeps, ...args: GatewayEvents[E]) => void | Promise<void>,
): GatewayHandler {
  return { event, what, handle } as unknown as GatewayHandler;
}
