// The HTTP request counter and latency histogram (D51), through prom-client's public API only
// (docs/adr/0007): a request is one `Histogram.observe` with its series' labels object, made once
// per (route, method, status) and reused, and one addition to the series' plain request count,
// which the counter reads in its documented `collect()` callback when scraped.
import { Counter, Histogram, type Registry } from 'prom-client';

type Label = 'route' | 'method' | 'status';
type Labels = Readonly<Record<Label, string>>;

interface Series {
  readonly labels: Labels;
  count: number;
}

export interface HttpMetrics {
  record(route: string, method: string, status: number, seconds: number): void;
}

export function createHttpMetrics(bounds: readonly number[], registers: Registry[]): HttpMetrics {
  /** route -> method -> status -> series. */
  const table = new Map<string, Map<string, Map<number, Series>>>();
  new Counter({
    name: 'cloudprice_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
    collect() {
      this.reset();
      for (const methods of table.values()) {
        for (const statuses of methods.values()) {
          for (const s of statuses.values()) this.inc(s.labels, s.count);
        }
      }
    },
  });
  const duration = new Histogram({
    name: 'cloudprice_http_request_duration_seconds',
    help: 'Time from request received to response sent, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [...bounds],
    registers,
  });

  return {
    record(route, method, status, seconds) {
      let methods = table.get(route);
      if (methods === undefined) {
        table.set(route, (methods = new Map<string, Map<number, Series>>()));
      }
      let statuses = methods.get(method);
      if (statuses === undefined) methods.set(method, (statuses = new Map<number, Series>()));
      let s = statuses.get(status);
      if (s === undefined) {
        s = { labels: Object.freeze({ route, method, status: String(status) }), count: 0 };
        statuses.set(status, s);
      }
      s.count += 1;
      duration.observe(s.labels, seconds);
    },
  };
}
