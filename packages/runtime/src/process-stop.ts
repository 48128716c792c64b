/**
 * How the API and the worker stop on SIGTERM / SIGINT, defined once. The same stop can arrive
 * more than once (a process manager signalling a whole process group, pnpm forwarding it as
 * well), so a second signal only says the stop is under way; a third means "stop now". A stop
 * that hangs past its deadline exits anyway, so a stuck dependency cannot keep a stopped
 * container alive.
 */

/** Pino's and Fastify's loggers both fit. */
export interface StopLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface GracefulStopOptions {
  logger: StopLogger;
  /** Closes everything; the process exits 0 when it resolves, 1 when it rejects. */
  close(): Promise<void>;
  /** How long `close` gets before the process exits 1. */
  deadlineMs: number;
  /** The log lines, in the process's own words. */
  messages: {
    /** After the second signal, e.g. "still finishing active jobs". */
    repeated: string;
    /** After the third, just before exiting 1. */
    immediate: string;
    /** When `deadlineMs` passed, before exiting 1. */
    deadline: string;
  };
  /** Where the exit goes (tests replace it); `process.exit` by default. */
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
}

/** Subscribes the stop to the signals; returns what a test can call instead of sending one. */
export function stopOnSignals(options: GracefulStopOptions): (signal: NodeJS.Signals) => void {
  const { logger, messages } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let received = 0;
  const stop = (signal: NodeJS.Signals) => {
    received += 1;
    if (received === 2) {
      logger.warn({ signal }, `${messages.repeated}; send the signal once more to exit at once`);
      return;
    }
    if (received > 2) {
      logger.warn({ signal }, messages.immediate);
      exit(1);
      return;
    }
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error({ deadlineMs: options.deadlineMs }, messages.deadline);
      exit(1);
    }, options.deadlineMs);
    deadline.unref();
    options.close().then(
      () => {
        clearTimeout(deadline);
        logger.info({}, 'shutdown complete');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) process.on(signal, stop);
  return stop;
}
