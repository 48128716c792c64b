/**
 * What the repo's own checks build the way the API builds it (`@spacecadet/api/testing`): the
 * Grafana dashboard's metric check reads the API's metric registry, without reaching into src.
 */
export { createApiMetrics } from './plugins/metrics.ts';
