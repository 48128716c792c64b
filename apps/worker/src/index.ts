export { isLocalDiscord, loadWorkerConfig, type WorkerConfig, WorkerConfigError } from './env.ts';
export { colorWarningsKey, listColorWarnings } from './features/color-roles/warnings.ts';
export { bullPrefix } from './jobs/job-worker.ts';
export { type RunningWorker, type StartWorkerOptions, startWorker } from './worker.ts';
