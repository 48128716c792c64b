export { loadWorkerConfig, type WorkerConfig, WorkerConfigError } from './env.ts';
export { type RunningWorker, type StartWorkerOptions, startWorker } from './worker.ts';
