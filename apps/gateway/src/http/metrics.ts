import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of the HTTP surface; ids in paths are folded so labels stay few. */
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

export function routeOf(path: string): string {
  return path
    .split('/')
    .map((segment) => (/^[0-9a-f]{16,}$/i.test(segment) || /^[0-9a-f-]{36}$/i.test(segment) ? '{id}' : segment))
    .join('/');
}

export type Metrics = ReturnType<typeof createMetrics>;
