import { Events, GatewayDispatchEvents } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { onGateway } from '../feature.ts';
import { levelingSetups } from './setup.ts';
import { awardConnection, closeAwardConnection, countMessageXp } from './xp-count.ts';
import { flusherOf, stopXpFlusher } from './xp-flush.ts';

/**
 * XP's wiring into the gateway: each chat message counted (`xp-count.ts`), the flush to
 * PostgreSQL started when the client is ready (`xp-flush.ts`) and drained at shutdown.
 */

export const xpEvents = [
  onGateway(Events.ClientReady, 'start counting XP', (deps) => {
    levelingSetups.listen(deps);
    flusherOf(deps).start();
  }),
  onGateway('raw', 'count XP for a message', (deps, packet) => {
    if (packet.t === GatewayDispatchEvents.MessageCreate) {
      return countMessageXp(deps, awardConnection(deps), packet.d);
    }
  }),
];

/** The feature's shutdown: buffered XP goes to Postgres before it closes. */
export async function flushXpOnShutdown(deps: WorkerDeps): Promise<void> {
  // No message arrives any more (the gateway closed before shutdown hooks run).
  await stopXpFlusher(deps);
  await closeAwardConnection(deps);
  await levelingSetups.close(deps);
}
