/** An API call that failed: `message` follows the spec (error field, message field, or
 * `api_error_{status}`), `status` and `code` are kept for the UI to branch on. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The server's human-readable `message`, when it sent one. */
  readonly detail: string | undefined;

  constructor(
    message: string,
    options: { status: number; code?: string | undefined; detail?: string | undefined },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.detail = options.detail;
  }
}

export const NOT_AUTHENTICATED = 'not_authenticated';
export const SESSION_EXPIRED = 'session_expired';

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** 401s mean sign in again; `session_expired` gets its own screen. */
export function authProblem(error: unknown): 'signed_out' | 'expired' | null {
  if (!isApiError(error) || error.status !== 401) return null;
  return error.code === SESSION_EXPIRED ? 'expired' : 'signed_out';
}

/** What a red banner says: the server's sentence when there is one, else the spec's message. */
export function errorText(error: unknown): string {
  if (isApiError(error)) return error.detail ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
