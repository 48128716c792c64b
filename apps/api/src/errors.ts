import { ERROR_STATUS, type ErrorCode } from '@spacecadet/contract';

/** An error the API answers as `{error: code, message}` with the code's status. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For a 400 about one field: where, so a page can show it next to that field. */
    readonly issues?: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Sign in again.';
export const QUEUE_UNAVAILABLE_MESSAGE = 'Job queue unavailable. Try again shortly.';

export const notAuthenticated = () => new ApiError('not_authenticated', 'Sign in required');
export const sessionExpired = () => new ApiError('session_expired', SESSION_EXPIRED_MESSAGE);
export const forbidden = () => new ApiError('forbidden', 'You do not manage this server');
export const notFound = (what = 'Not found') => new ApiError('not_found', what);
