import type { RequestListener } from 'node:http';
import { appRouter } from '@gateway/api';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of the HTTP surface, labelled by route template so labels stay few. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    observe(method: string, path: string, status: number, seconds: number) {
      const route = routeOf(path);
      requests.inc({ method, route, status: String(status) });
      duration.observe({ method, route }, seconds);
    },
  };
}

const OPERATIONAL = new Set(['/health', '/openapi.json', '/errorcodes']);

const ROUTES = [
  ...new Set(
    Object.values(appRouter._def.procedures).flatMap(
      (p) => (p as unknown as { _def: { meta?: { openapi?: { path: string } } } })._def.meta?.openapi?.path ?? [],
    ),
  ),
]
  // Literal paths first, as the router matches them.
  .sort((a, b) => (a.match(/\{/g) ?? []).length - (b.match(/\{/g) ?? []).length)
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i') }));

/** The route template of a path (`/charge/{chargeId}`); every unknown path shares one label. */
export function routeOf(path: string): string {
  if (OPERATIONAL.has(path)) return path;
  if (path.startsWith('/trpc/')) return '/trpc';
  return ROUTES.find((r) => r.pattern.test(path))?.template ?? 'unmatched';
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Serves GET /metrics on a listener of its own (GATEWAY_METRICS_HOST:GATEWAY_METRICS_PORT, this
 * machine only by default): the API port never shows it to the internet.
 */
export function createMetricsListener(metrics: Metrics): RequestListener {
  return (req, res) => {
    res.setHeader('cache-control', 'no-store');
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.statusCode = 404;
      res.end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.setHeader('content-type', metrics.registry.contentType);
        res.end(text);
      },
      () => {
        res.statusCode = 500;
        res.end();
      },
    );
  };
}
