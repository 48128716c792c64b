import { EnvError, loadApiConfig } from './env.ts';

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

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A stuck dependency must not keep a stopped container alive forever.
    const deadline = setTimeout(() => process.exit(1), 10_000);
    deadline.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
