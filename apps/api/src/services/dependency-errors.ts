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

/** The error codes along the cause chain (Drizzle wraps driver errors). */
function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return codes;
}

/** Postgres `undefined_table`: a table the code expects was never migrated. */
export function isUndefinedTable(error: unknown): boolean {
  return causeCodes(error).includes('42P01');
}

/**
 * Postgres refusing a value the client sent (validation should have caught it first). The
 * statement changed nothing, so the answer is a 400 with this message, not a 500.
 */
const UNSTORABLE_TEXT = 'Text contains characters that cannot be stored (such as NUL)';
const REJECTED_INPUT = new Map([
  ['22003', 'A number is out of range'],
  ['22P02', 'A value is not in a valid format'],
  ['54001', 'The input is too complex (nested too deeply)'],
  ['22021', UNSTORABLE_TEXT],
  ['22P05', UNSTORABLE_TEXT],
]);

/** The 400 message for a Postgres error caused by the client's input, or null for any other error. */
export function rejectedInputMessage(error: unknown): string | null {
  for (const code of causeCodes(error)) {
    const message = REJECTED_INPUT.get(code);
    if (message !== undefined) return message;
  }
  return null;
}
