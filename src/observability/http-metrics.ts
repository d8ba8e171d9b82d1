// The HTTP request counter and latency histogram (D51), through prom-client's public API only
// (docs/adr/0007). On the request path a request is two writes into its series (made once per
// route, method and status): its count, and its duration appended to the series' pending
// durations. prom-client sees them in the metrics' documented `collect()` callbacks, which the
// registry calls when scraped: the counter reads the counts, the histogram `observe`s the pending
// durations, and a series whose pending list is full hands it over at once. One `observe` in the
// server's request path cost ~5 µs (label validation and hashing with cold caches), 18% of a
// cached /instances request as shipped; the same calls in a run of 1,024 cost a fraction of that
// (docs/performance.md, "Machinery in proportion").
import { Counter, Histogram, type Registry } from 'prom-client';

type Label = 'route' | 'method' | 'status';
type Labels = Readonly<Record<Label, string>>;

/** Durations a series keeps before handing them to the histogram (8 KiB a series). */
const PENDING_MAX = 1024;

interface Series {
  readonly labels: Labels;
  count: number;
  /** Seconds, not yet observed by the histogram: the first `pendingCount` entries. */
  readonly pending: Float64Array;
  pendingCount: number;
}

export interface HttpMetrics {
  record(route: string, method: string, status: number, seconds: number): void;
}

export function createHttpMetrics(bounds: readonly number[], registers: Registry[]): HttpMetrics {
  /** route -> method -> status -> series. */
  const table = new Map<string, Map<string, Map<number, Series>>>();
  function* all(): Iterable<Series> {
    for (const methods of table.values()) {
      for (const statuses of methods.values()) yield* statuses.values();
    }
  }
  new Counter({
    name: 'cloudprice_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
    collect() {
      this.reset();
      for (const s of all()) this.inc(s.labels, s.count);
    },
  });
  const duration = new Histogram({
    name: 'cloudprice_http_request_duration_seconds',
    help: 'Time from request received to response sent, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [...bounds],
    registers,
    collect() {
      for (const s of all()) observePending(s);
    },
  });
  function observePending(s: Series): void {
    for (let i = 0; i < s.pendingCount; i++) duration.observe(s.labels, s.pending[i]!);
    s.pendingCount = 0;
  }

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
        s = {
          labels: Object.freeze({ route, method, status: String(status) }),
          count: 0,
          pending: new Float64Array(PENDING_MAX),
          pendingCount: 0,
        };
        statuses.set(status, s);
      }
      s.count += 1;
      s.pending[s.pendingCount++] = seconds;
      if (s.pendingCount === PENDING_MAX) observePending(s);
    },
  };
}
