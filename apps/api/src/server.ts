import { EnvError, loadApiConfig } from './env.ts';

/** How long in-flight requests and the connections to Postgres, Redis and the queue get to close. */
const SHUTDOWN_DEADLINE_MS = 10_000;

/** Production entry: read env, build, listen, and close everything cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadApiConfig>;
  try {
    config = loadApiConfig();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Loaded after the env check so a bad variable is reported before any heavy import.
  const { buildApp } = await import('./app.ts');
  const app = await buildApp(config);
  for (const warning of config.warnings) app.log.warn(warning);

  // The same stop can arrive more than once (a process manager signalling a whole process group,
  // pnpm forwarding it as well): only a third signal means "stop now".
  let signals = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals === 2) {
      app.log.warn({ signal }, 'already shutting down; send the signal once more to exit at once');
      return;
    }
    if (signals > 2) {
      app.log.warn({ signal }, 'exiting at once');
      process.exit(1);
    }
    app.log.info({ signal }, 'shutting down');
    // A stuck dependency or request must not keep a stopped container alive forever.
    const deadline = setTimeout(() => {
      app.log.error(`not closed within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    app.close().then(
      () => {
        app.log.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
