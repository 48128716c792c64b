import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the proxy counts, across every process that sends through it. */
export function createProxyMetrics(invalidRequests: () => number) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'discord_proxy_' });
  return {
    registry,
    requests: new Counter({
      name: 'discord_proxy_requests_total',
      help: 'Requests answered by the proxy, by bucket route (ids and tokens replaced), method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    upstreamRateLimits: new Counter({
      name: 'discord_proxy_upstream_429_total',
      help: '429s Discord answered the proxy, by bucket route and X-RateLimit-Scope (user, global, shared)',
      labelNames: ['route', 'scope'] as const,
      registers: [registry],
    }),
    wait: new Histogram({
      name: 'discord_proxy_wait_seconds',
      help: 'Time a request waited in the proxy (rate limits, queue) before it went to Discord, by bucket route',
      labelNames: ['route'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    budgetRefusals: new Counter({
      name: 'discord_proxy_budget_refusals_total',
      help: 'Requests the proxy refused because the invalid-request budget was spent',
      registers: [registry],
    }),
    active: new Gauge({
      name: 'discord_proxy_active',
      help: 'Whether this proxy is the active one, the one sending to Discord (1), or stands by passing requests on to it (0)',
      registers: [registry],
    }),
    takeovers: new Counter({
      name: 'discord_proxy_takeovers_total',
      help: 'Times this proxy became the active one (took the lease), its limits reset conservatively',
      registers: [registry],
    }),
    passedOn: new Counter({
      name: 'discord_proxy_passed_on_total',
      help: 'Requests this proxy, standing by, passed on to the active one',
      registers: [registry],
    }),
    invalid: new Gauge({
      name: 'discord_proxy_invalid_requests',
      help: '401, 403 and 429 answers from Discord in the last 10 minutes (Discord bans the IP at 10,000)',
      registers: [registry],
      collect() {
        this.set(invalidRequests());
      },
    }),
  };
}

export type ProxyMetrics = ReturnType<typeof createProxyMetrics>;
