import { type Logger, pino } from 'pino';
import type { LogLevel } from './env.ts';

export type { Logger };

/** JSON logs on stdout; one line per event so a log shipper can parse them. */
export function createLogger(level: LogLevel): Logger {
  return pino({ name: 'worker', level, base: { service: 'worker' } });
}

/** Error fields pino serialises well even for non-Error throwables. */
export function errorFields(error: unknown): { err: Error } {
  return { err: error instanceof Error ? error : new Error(String(error)) };
}
