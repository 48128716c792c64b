import { loadWorkerConfig, WorkerConfigError } from './env.ts';
import { createLogger } from './logger.ts';
import { startWorker } from './worker.ts';

/** The worker process: `pnpm --filter @spacecadet/worker start`. Stops cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadWorkerConfig>;
  try {
    config = loadWorkerConfig();
  } catch (error) {
    if (error instanceof WorkerConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const worker = await startWorker(config, { logger });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    worker.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `worker failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
