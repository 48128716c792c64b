// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { EnvError, NO_DISCORD_PROXY_WARNING } from '@spacecadet/contract';
import { stopOnSignals } from '@spacecadet/runtime/process-stop';
import { loadWorkerConfig } from './env.ts';
import { createLogger } from './logger.ts';
import { startWorker } from './worker.ts';

/**
 * How long active jobs get to finish after SIGTERM. Jobs are resumable (each step is recorded
 * as it goes) and a job cut short is retried elsewhere once its lock (JOB_LOCK_DURATION_MS)
 * lapses, so this is a courtesy, not a guarantee: long enough for a job waiting out a Discord
 * rate limit, and shorter than compose's 30 s stop_grace_period for the worker, so the worker
 * exits on its own terms (logged) before it is SIGKILLed.
 */
const SHUTDOWN_DEADLINE_MS = 25_000;

/** The worker process: `pnpm --filter @spacecadet/worker start`. Stops cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadWorkerConfig>;
  try {
    config = loadWorkerConfig();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  if (config.discordProxyUrls === null) logger.warn(NO_DISCORD_PROXY_WARNING);
  const worker = await startWorker(config, { logger });
  // It stopped itself (its shards, taken over, did not connect, or another process took them):
  // exit non-zero so the supervisor starts it again.
  void worker.failed.then(async (error) => {
    process.stderr.write(`worker stopped: ${error.message}\n`);
    await worker.close();
    process.exit(1);
  });

  stopOnSignals({
    logger,
    close: () => worker.close(),
    deadlineMs: SHUTDOWN_DEADLINE_MS,
    messages: {
      repeated: 'still finishing active jobs',
      immediate: 'exiting at once; unfinished jobs will be retried',
      deadline: `active jobs not finished within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting, they will be retried`,
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `worker failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
