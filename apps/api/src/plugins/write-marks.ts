import type { FastifyInstance } from 'fastify';

const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Read-your-writes with a read replica (services/read-replica.ts): the one place every API write
 * passes. A request that may have written (any method but GET, HEAD and OPTIONS, answered below
 * 400) records the primary's WAL position for its path's guild and its user before the answer
 * leaves, so the next read of theirs waits for the replica or goes to the primary. Writes made
 * later by a job are covered where the job is seen to finish (routes/jobs.ts). No replica: no-op.
 */
export function registerWriteMarks(app: FastifyInstance): void {
  const { reads } = app.services;
  if (!reads.enabled) return;
  app.addHook('onSend', async (request, reply, payload) => {
    if (READ_METHODS.has(request.method) || reply.statusCode >= 400) return payload;
    const guildId = (request.params as { guildId?: unknown } | undefined)?.guildId;
    await reads.markWrite({
      guildId: typeof guildId === 'string' ? guildId : undefined,
      userId: request.session?.user.id,
    });
    return payload;
  });
}
