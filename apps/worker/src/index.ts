export { loadWorkerConfig, type WorkerConfig } from './env.ts';
export { type RunningWorker, type StartWorkerOptions, startWorker } from './worker.ts';
