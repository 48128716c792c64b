/**
 * ops/grafana/spacecadet.json must not drift from the code: every metric a panel queries is one
 * the API or the worker registers, and every label it groups by is one that metric has. Both
 * registries are built the way the apps build them (no I/O: nothing is collected here).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiMetrics } from '@spacecadet/api/testing';
import { loadWorkerConfig } from '@spacecadet/worker';
import { createDiscordClient, createLogger, workerMetricsFor } from '@spacecadet/worker/testing';
import { afterAll, describe, expect, it } from 'vitest';

interface Target {
  expr: string;
  datasource?: { uid?: string };
}
interface Panel {
  type: string;
  title: string;
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
}
interface Dashboard {
  uid: string;
  title: string;
  templating: { list: Array<{ name: string; type: string; query: string }> };
  panels: Panel[];
}

const dashboard = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'ops', 'grafana', 'spacecadet.json'), 'utf8'),
) as Dashboard;

// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a JS template
const DATASOURCE_UID = '${datasource}';
const noQueue = { getJobCounts: async () => ({}) };
const workerConfig = loadWorkerConfig({
  DISCORD_API_BASE: 'http://127.0.0.1:4100/api',
  METRICS_PORT: '9465',
  LOG_LEVEL: 'silent',
});
const client = createDiscordClient(workerConfig);
const workerMetrics = workerMetricsFor(workerConfig, {
  client,
  queue: noQueue,
  logger: createLogger('silent'),
});
const apiMetrics = createApiMetrics(noQueue, () => {});
afterAll(async () => {
  await client.destroy();
});

/** Every series name each registered metric exposes, with that metric's labels. */
function exposedSeries(): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  const registries = [apiMetrics.registry, workerMetrics?.registry];
  for (const metric of registries.flatMap((registry) => registry?.getMetricsAsArray() ?? [])) {
    const { name, labelNames } = metric as unknown as { name: string; labelNames: readonly string[] };
    const histogram = metric.constructor.name === 'Histogram';
    const names = histogram ? ['_bucket', '_sum', '_count'].map((suffix) => name + suffix) : [name];
    for (const exposed of names) {
      const labels = new Set([...labelNames, 'job', 'instance']);
      if (exposed.endsWith('_bucket')) labels.add('le');
      series.set(exposed, labels);
    }
  }
  return series;
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
]);

/** The metric names a PromQL expression selects, and the labels it groups by. */
function parseExpr(expr: string): { metrics: string[]; groupLabels: string[] } {
  const groupLabels = [...expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean),
  );
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without)\s*\([^)]*\)/g, '');
  const metrics = [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)]
    .filter((match) => match[2] === undefined && match[1] !== undefined && !PROMQL_WORDS.has(match[1]))
    .map((match) => match[1] as string);
  return { metrics, groupLabels };
}

describe('ops/grafana/spacecadet.json', () => {
  const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
  const series = exposedSeries();

  it('picks its Prometheus data source from a template variable', () => {
    expect(dashboard.uid).toBe('spacecadet');
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
    for (const panel of panels) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: DATASOURCE_UID });
      for (const target of panel.targets ?? []) expect(target.datasource?.uid).toBe(DATASOURCE_UID);
    }
  });

  it('queries only metrics the API or the worker registers, grouped by labels they have', () => {
    expect(workerMetrics).not.toBeNull();
    expect(panels.length).toBeGreaterThanOrEqual(12);
    const used = new Set<string>();
    for (const panel of panels) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets ?? []) {
        const { metrics, groupLabels } = parseExpr(expr);
        expect(metrics.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        for (const metric of metrics) {
          const labels = series.get(metric);
          expect(labels, `${panel.title}: ${metric} is not registered`).toBeDefined();
          for (const label of groupLabels) {
            expect([...(labels ?? [])], `${panel.title}: ${metric} has no label ${label}`).toContain(label);
          }
          used.add(metric.replace(/_(bucket|sum|count)$/, ''));
        }
      }
    }
    // Every metric this change added is on the dashboard.
    for (const metric of [
      'http_request_duration_seconds',
      'jobs_total',
      'job_duration_seconds',
      'queue_jobs',
      'interaction_answer_seconds',
      'gateway_latency_seconds',
      'gateway_shard_up',
      'xp_messages_total',
      'discord_rest_rate_limited_total',
    ]) {
      expect(used).toContain(metric);
    }
  });

  it('the expression parser finds names and labels, so the check above can fail', () => {
    expect(
      parseExpr(
        'histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{status_code=~"5.."}[5m])))',
      ),
    ).toEqual({ metrics: ['http_request_duration_seconds_bucket'], groupLabels: ['le', 'route'] });
    expect(parseExpr('max by (state) (queue_jobs) / count(gateway_shard_up)').metrics).toEqual([
      'queue_jobs',
      'gateway_shard_up',
    ]);
    expect(series.get('not_a_metric_total')).toBeUndefined();
    expect(series.get('jobs_total')?.has('job_name')).toBe(true);
    expect(series.get('jobs_total')?.has('route')).toBe(false);
  });
});
