/**
 * Whether an error means Postgres or Redis is not answering (so the answer is 503, not 500).
 * Drizzle wraps driver errors, so the cause chain is walked.
 */
const DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '57P01',
  '57P03',
]);
const DOWN_MESSAGES = [
  'Connection is closed',
  "Stream isn't writeable",
  'Command timed out',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Reached the max retries per request limit',
];

export function isDependencyDown(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.name === 'MaxRetriesPerRequestError') return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && DOWN_CODES.has(code)) return true;
    if (DOWN_MESSAGES.some((m) => current instanceof Error && current.message.includes(m))) return true;
    current = current.cause;
  }
  return false;
}

/** Postgres `undefined_table`: a table the code expects was never migrated. */
export function isUndefinedTable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if ((current as { code?: unknown }).code === '42P01') return true;
    current = current.cause;
  }
  return false;
}

/**
 * Postgres refusing a character it cannot store (NUL in text or jsonb). It is the client's
 * input, so it is a 400, and the statement changed nothing.
 */
export function isUnstorableText(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === '22P05' || code === '22021') return true;
    current = current.cause;
  }
  return false;
}
