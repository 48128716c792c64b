import type { IncomingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyLoggerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ApiConfig } from './env.ts';
import { ApiError } from './errors.ts';
import { serializeRequest } from './log-redaction.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerDocs } from './plugins/docs.ts';
import { answerClientError, registerErrorHandling, sendError } from './plugins/errors.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerQueueBoard } from './plugins/queue-board.ts';
import { registerSecurity, trustedProxies } from './plugins/security.ts';
import { registerServices } from './plugins/services.ts';
import { registerWriteMarks } from './plugins/write-marks.ts';
import { registerRequestId, requestIdOf, withRequestId } from './request-id.ts';
import { registerRoutes } from './routes/index.ts';

export type { ApiConfig } from './env.ts';
export { loadApiConfig } from './env.ts';

/** Request bodies above this are refused with 413 before parsing (the config cap is 64 KiB). */
const BODY_LIMIT_BYTES = 256 * 1024;

export const ENCODED_BODY_MESSAGE = 'Send the body uncompressed (no Content-Encoding)';

function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** No Content-Encoding, or only `identity`, which changes nothing. */
function isIdentity(encoding: string | undefined): boolean {
  if (encoding === undefined) return true;
  return encoding.split(',').every((coding) => ['', 'identity'].includes(coding.trim().toLowerCase()));
}

/**
 * The contract's response check and JSON, done once per answer object: a reply served from an
 * in-process copy (a cached config, say) sends the very object it sent before, whose checked JSON
 * is kept beside it until the object is dropped. Nothing we send is changed after it is sent.
 */
const rememberingSerializer: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  const sent = new WeakMap<object, string>();
  return (data: unknown) => {
    if (typeof data !== 'object' || data === null) return serialize(data);
    let json = sent.get(data);
    if (json === undefined) {
      json = serialize(data);
      sent.set(data, json);
    }
    return json;
  };
};

/** The logger with the request serializer that keeps secrets in URLs out of the log. */
function loggerOptions(logger: NonNullable<BuildAppOptions['logger']>): boolean | FastifyLoggerOptions {
  if (logger === false) return false;
  return { ...(logger === true ? {} : logger), serializers: { req: serializeRequest } };
}

export interface BuildAppOptions {
  /**
   * Pino logger options, or false for silence (tests). Default: the config's log level. A
   * `stream` takes the JSON lines instead of stdout (tests read them).
   */
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
}

/** Builds the whole API (plugins, services, routes) without listening; tests use it too. */
export async function buildApp(config: ApiConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(options.logger ?? { level: config.logLevel }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Request ids let a 500's log line be found from the client's report: a safe incoming
    // x-request-id or a fresh UUID (request-id.ts), echoed in the answer and carried into jobs.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Behind a reverse proxy (TRUST_PROXY), request.ip is the client's address from
    // X-Forwarded-For, for the rate limiter and the logs; off, that header is ignored.
    trustProxy: trustedProxies(config.trustProxy),
    // The router's own errors (malformed URL, over-long path parameter) in the one error body.
    // No hook runs for them, so the request id header is added here.
    frameworkErrors: (error, request, reply) => sendError(error, request, withRequestId(request, reply)),
    // And what Node's HTTP parser refuses before Fastify sees a request.
    clientErrorHandler: answerClientError,
    // Slow clients: a request must arrive within these, else Node answers 408 (through
    // answerClientError) and closes the connection.
    requestTimeout: config.http.requestMs,
    keepAliveTimeout: config.http.keepAliveMs,
    connectionTimeout: config.http.idleMs,
    http: {
      headersTimeout: config.http.headersMs,
      // Node enforces the two timeouts only when it checks, every 30 s by default.
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(1_000, Math.floor(Math.min(config.http.headersMs, config.http.requestMs) / 4)),
      ),
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(rememberingSerializer);
  registerRequestId(app);

  // JSON only (anything else is 415). Bodiless POSTs sent with a JSON content type are fine;
  // malformed JSON is a 400. Any key is data (a raw config may say `__proto__`): JSON.parse makes
  // it an own property, and zod rebuilds every typed body without one, so no key sets a prototype.
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });

  // Nothing is decompressed: a gzip (or any encoded) body would otherwise be read as plain JSON.
  // Callback hooks on every request's path: an async one costs a promise and a microtask each.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (hasBody(request.headers) && !isIdentity(request.headers['content-encoding'])) {
      return done(new ApiError('unsupported_media_type', ENCODED_BODY_MESSAGE));
    }
    done(null, payload);
  });

  // close() ends idle keep-alive connections at once and waits for the busy ones; a busy one would
  // then stay open after its answer until keepAliveTimeout. Tell its client the connection ends.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  const services = await registerServices(app, config);
  registerMetrics(app, config);

  registerErrorHandling(app);
  await registerSecurity(app, config, services.redis);
  await registerDocs(app, config);
  registerAuth(app);
  registerWriteMarks(app);
  await registerRoutes(app);
  await registerQueueBoard(app);
  return app;
}
