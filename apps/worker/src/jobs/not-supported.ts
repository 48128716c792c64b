import { type JobName, NOT_SUPPORTED } from '@spacecadet/contract';
import { JobFailure, type JobHandler } from './types.ts';

/** Stands in for a job whose feature is not built yet: fails at once, never hangs or retries. */
export function notSupported(name: JobName): JobHandler {
  return async () => {
    throw new JobFailure(NOT_SUPPORTED, `${name} is not built yet`);
  };
}
