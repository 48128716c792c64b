// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { EnvError } from '@spacecadet/contract';
import { stopOnSignals } from '@spacecadet/runtime/process-stop';
import { loadApiConfig } from './env.ts';

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

  stopOnSignals({
    logger: app.log,
    close: () => app.close(),
    deadlineMs: SHUTDOWN_DEADLINE_MS,
    messages: {
      repeated: 'already shutting down',
      immediate: 'exiting at once',
      deadline: `not closed within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting`,
    },
  });

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
