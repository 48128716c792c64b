import type { Duplex } from 'node:stream';
import { type ErrorBody, type ErrorCode, MESSAGES } from '@spacecadet/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError } from '../errors.ts';
import { isDependencyDown, rejectedInputMessage } from '../services/dependency-errors.ts';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_input',
  401: 'not_authenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

const UNSUPPORTED_MEDIA_TYPE = 'Send the body as application/json';

interface ErrorAnswer {
  status: number;
  body: ErrorBody;
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && ('code' in error || 'statusCode' in error);
}

/** Maps anything thrown while handling a request to the one error body. */
export function toErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof ApiError) {
    const issues = error.issues ? { issues: [...error.issues] } : {};
    return { status: error.status, body: { error: error.code, message: error.message, ...issues } };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message ?? 'Invalid value',
    }));
    const message = issues[0]?.message ?? 'Invalid input';
    return { status: 400, body: { error: 'invalid_input', message, issues } };
  }
  if (isFastifyError(error)) {
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return { status: 400, body: { error: 'invalid_input', message: MESSAGES.invalidJson } };
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return { status: 413, body: { error: 'payload_too_large', message: 'Request body is too large' } };
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return {
          status: 415,
          body: { error: 'unsupported_media_type', message: UNSUPPORTED_MEDIA_TYPE },
        };
      // Fastify's messages for these echo the whole URL back.
      case 'FST_ERR_MAX_PARAM_LENGTH':
        return { status: 400, body: { error: 'invalid_input', message: 'A path segment is too long' } };
      case 'FST_ERR_BAD_URL':
        return { status: 400, body: { error: 'invalid_input', message: 'The URL is not correctly encoded' } };
    }
    // A JSON syntax error from the body parser carries 400 but no code.
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return { status: 400, body: { error: 'invalid_input', message: MESSAGES.invalidJson } };
    }
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const code = CODE_BY_STATUS[status] ?? 'invalid_input';
      return { status: CODE_BY_STATUS[status] ? status : 400, body: { error: code, message: error.message } };
    }
  }
  const rejected = rejectedInputMessage(error);
  if (rejected !== null) return { status: 400, body: { error: 'invalid_input', message: rejected } };
  if (isDependencyDown(error)) {
    return {
      status: 503,
      body: { error: 'service_unavailable', message: 'A backing service is unavailable. Try again shortly.' },
    };
  }
  return { status: 500, body: { error: 'internal_error', message: 'Something went wrong' } };
}

/**
 * Answers an error in the one error body. The error handler uses it, and so does Fastify's
 * `frameworkErrors` option, for the errors its router raises before any route runs (a malformed
 * URL, a path parameter over `maxParamLength`).
 */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const answer = toErrorAnswer(error);
  // A route that takes more than JSON (the XP import) says which types it takes.
  const types = request.routeOptions?.config?.bodyMediaTypes;
  if (answer.status === 415 && types && answer.body.message === UNSUPPORTED_MEDIA_TYPE) {
    answer.body = { ...answer.body, message: `Send the body as ${types.join(' or ')}` };
  }
  if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
  // Postgres refusing input means validation missed it: keep the error to find out why.
  else if (rejectedInputMessage(error) !== null) request.log.warn({ err: error }, answer.body.message);
  else request.log.info({ code: answer.body.error }, answer.body.message);
  return reply.code(answer.status).send(answer.body);
}

interface ClientErrorAnswer {
  status: number;
  reason: string;
  body: ErrorBody;
}
const CLIENT_ERRORS = new Map<string, ClientErrorAnswer>([
  [
    'ERR_HTTP_REQUEST_TIMEOUT',
    {
      status: 408,
      reason: 'Request Timeout',
      body: { error: 'invalid_input', message: 'The request took too long to arrive' },
    },
  ],
  [
    'HPE_HEADER_OVERFLOW',
    {
      status: 431,
      reason: 'Request Header Fields Too Large',
      body: { error: 'payload_too_large', message: 'The request headers are too large' },
    },
  ],
]);
const MALFORMED_REQUEST: ClientErrorAnswer = {
  status: 400,
  reason: 'Bad Request',
  body: { error: 'invalid_input', message: 'Malformed HTTP request' },
};

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before Fastify sees them
 * (bad request line, oversized headers, timeout) answer in the one error body too.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = CLIENT_ERRORS.get(error.code ?? '') ?? MALFORMED_REQUEST;
  if (socket.writable) {
    const body = JSON.stringify(answer.body);
    socket.write(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** One error handler and one not-found handler for the whole app. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(sendError);

  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = {
      error: 'not_found',
      message: `No route ${request.method} ${request.routeOptions.url ?? 'here'}`,
    };
    return reply.code(404).send(body);
  });
}
