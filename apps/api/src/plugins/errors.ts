import { type ErrorBody, type ErrorCode, MESSAGES } from '@spacecadet/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError } from '../errors.ts';
import { isDependencyDown, isUnstorableText } from '../services/dependency-errors.ts';

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
    return { status: error.status, body: { error: error.code, message: error.message } };
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
          body: { error: 'unsupported_media_type', message: 'Send the body as application/json' },
        };
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
  if (isUnstorableText(error)) {
    return { status: 400, body: { error: 'invalid_input', message: 'Text cannot contain NUL characters' } };
  }
  if (isDependencyDown(error)) {
    return {
      status: 503,
      body: { error: 'service_unavailable', message: 'A backing service is unavailable. Try again shortly.' },
    };
  }
  return { status: 500, body: { error: 'internal_error', message: 'Something went wrong' } };
}

/** One error handler and one not-found handler for the whole app. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const answer = toErrorAnswer(error);
    if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: answer.body.error }, answer.body.message);
    return reply.code(answer.status).send(answer.body);
  });

  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = {
      error: 'not_found',
      message: `No route ${request.method} ${request.routeOptions.url ?? 'here'}`,
    };
    return reply.code(404).send(body);
  });
}
