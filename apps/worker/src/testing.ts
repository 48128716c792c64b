/**
 * What the repo's own checks build the way the worker builds it (`@spacecadet/worker/testing`):
 * the Grafana dashboard's metric check and the benchmarks, which must not reach into src files.
 */
export { createDiscordClient, WORKER_INTENTS } from './discord-client.ts';
export type { WorkerFeature } from './features/feature.ts';
export { FEATURES } from './features/index.ts';
// The XP benchmark drives the buffer's Lua scripts and batch steps directly.
export { finishBatch, readBatch, takeDirtyGuilds, takeGuildBatch } from './features/leveling/xp-batches.ts';
export { awardMessageXp } from './features/leveling/xp-buffer.ts';
export type { MinuteClock } from './features/voice-xp/clock.ts';
// The voice benchmark runs voice XP on its own minutes.
export { voiceXpFeatureWith } from './features/voice-xp/index.ts';
export { createLogger } from './logger.ts';
export { workerMetricsFor } from './metrics.ts';
