import { MESSAGES } from '@spacecadet/contract';

/** An API call that failed: `message` is the answer's error field, else its message field, else
 * `api_error_{status}`; `status` and `code` are kept for the UI to branch on. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The server's human-readable `message`, when it sent one. */
  readonly detail: string | undefined;
  /** A 400's field issues (`path` is the body field), so a form can show each next to its field. */
  readonly issues: ReadonlyArray<{ path: string; message: string }>;

  constructor(
    message: string,
    options: {
      status: number;
      code?: string | undefined;
      detail?: string | undefined;
      issues?: ReadonlyArray<{ path: string; message: string }>;
    },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.detail = options.detail;
    this.issues = options.issues ?? [];
  }
}

/** The failed request's sentence for one body field, if the server named that field. */
export function fieldIssue(error: unknown, field: string): string | null {
  if (!isApiError(error)) return null;
  return error.issues.find((issue) => issue.path === field)?.message ?? null;
}

export const NOT_AUTHENTICATED = 'not_authenticated';
export const SESSION_EXPIRED = 'session_expired';

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Wording fixed for a code (contract `MESSAGES`): shown whatever sentence the server sent. */
const SPEC_TEXT: Readonly<Record<string, string>> = {
  discord_guilds_fetch_failed: MESSAGES.discordGuildsFetchFailed,
  color_roles_unavailable: MESSAGES.colorRolesUnavailable,
};

/** What a code means when the server sent no sentence of its own. */
const CODE_TEXT: Readonly<Record<string, string>> = {
  forbidden: 'You do not manage this server',
  bot_not_in_guild: MESSAGES.botNotInGuild,
  not_authenticated: MESSAGES.signInRequired,
};

/**
 * What a red banner says, the same on every dashboard page: the fixed wording for the codes
 * it fixes, else the server's sentence, else a sentence for a known code, else the caller's
 * fallback, else `api_error_{status}`.
 */
export function errorText(error: unknown, fallback?: string): string {
  if (isApiError(error)) {
    return (
      SPEC_TEXT[error.code ?? ''] ?? error.detail ?? CODE_TEXT[error.code ?? ''] ?? fallback ?? error.message
    );
  }
  if (fallback !== undefined) return fallback;
  if (error instanceof Error) return error.message;
  return String(error);
}
