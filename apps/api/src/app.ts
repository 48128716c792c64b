import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ApiConfig } from './env.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerDocs } from './plugins/docs.ts';
import { answerClientError, registerErrorHandling, sendError } from './plugins/errors.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerServices } from './plugins/services.ts';
import { registerRoutes } from './routes/index.ts';

export type { ApiConfig } from './env.ts';
export { loadApiConfig } from './env.ts';

/** Request bodies above this are refused with 413 before parsing (the config cap is 64 KiB). */
const BODY_LIMIT_BYTES = 256 * 1024;

export interface BuildAppOptions {
  /** Pino logger options, or false for silence (tests). Default: the config's log level. */
  logger?: boolean | { level: string };
}

/** Builds the whole API (plugins, services, routes) without listening; tests use it too. */
export async function buildApp(config: ApiConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    // Request ids let a 500's log line be found from the client's report.
    requestIdHeader: 'x-request-id',
    // The router's own errors (malformed URL, over-long path parameter) in the one error body.
    frameworkErrors: sendError,
    // And what Node's HTTP parser refuses before Fastify sees a request.
    clientErrorHandler: answerClientError,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // JSON only (anything else is 415). Bodiless POSTs sent with a JSON content type are fine;
  // malformed JSON is a 400.
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });

  const services = await registerServices(app, config);

  registerErrorHandling(app);
  await registerSecurity(app, config, services.redis);
  await registerDocs(app, config);
  registerAuth(app);
  await registerRoutes(app);
  return app;
}
