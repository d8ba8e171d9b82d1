// The HTTP request counter and latency histogram (D51), counted in plain numbers per series on the
// request path and handed to prom-client only when scraped. prom-client's own inc and observe
// (label validation, a label-hash string per call, a closure per observe) cost ~5 µs a request
// inside the server against 0.85 µs in a loop: most of the 11% that metrics took from cached
// /instances (docs/performance.md, "Metrics overhead"). Here a request is three map reads and
// a few additions.
import { Counter, Histogram, type Registry } from 'prom-client';

type Label = 'route' | 'method' | 'status';
type Labels = Readonly<Record<Label, string>>;

class Series {
  count = 0;
  /** Seconds. */
  sum = 0;
  /** Requests per bucket (not cumulative); the last one is above the largest bound (+Inf). */
  readonly buckets: Float64Array;
  constructor(
    readonly labels: Labels,
    bucketCount: number,
  ) {
    this.buckets = new Float64Array(bucketCount + 1);
  }
}

/** One line of the text exposition as prom-client's registry formats it. */
interface ExpositionValue {
  readonly metricName: string;
  readonly labels: Readonly<Record<string, string | number>>;
  /** The series' labels, printed after `labels` (prom-client's own histogram does the same). */
  readonly sharedLabels: Labels;
  readonly value: number;
}

/** The latency histogram's exposition from the series table instead of prom-client's own. */
class SeriesHistogram extends Histogram<Label | 'le'> {
  // Not #private: prom-client's constructor calls reset() before these are set, and reading an
  // unset #field throws.
  private readonly seriesName: string;
  private readonly helpText: string;
  private readonly bounds: readonly number[];
  private readonly series: () => Iterable<Series>;
  private readonly clear: (() => void) | undefined;

  constructor(
    name: string,
    help: string,
    bounds: readonly number[],
    series: () => Iterable<Series>,
    clear: () => void,
    registers: Registry[],
  ) {
    super({
      name,
      help,
      labelNames: ['route', 'method', 'status'],
      buckets: [...bounds],
      registers,
    });
    this.seriesName = name;
    this.helpText = help;
    this.bounds = bounds;
    this.series = series;
    this.clear = clear;
  }

  /** registry.resetMetrics(). */
  override reset(): void {
    super.reset();
    this.clear?.();
  }

  /**
   * What the registry formats for the text exposition (it prefers this method to `get`), in the
   * form prom-client's own histogram gives; its `get` (the JSON form) builds on this one.
   */
  getForPromString() {
    const values: ExpositionValue[] = [];
    const bucket = `${this.seriesName}_bucket`;
    for (const s of this.series()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        values.push({
          metricName: bucket,
          labels: { le },
          sharedLabels: s.labels,
          value: cumulative,
        });
      });
      values.push({
        metricName: bucket,
        labels: { le: '+Inf' },
        sharedLabels: s.labels,
        value: s.count,
      });
      values.push({
        metricName: `${this.seriesName}_sum`,
        labels: {},
        sharedLabels: s.labels,
        value: s.sum,
      });
      values.push({
        metricName: `${this.seriesName}_count`,
        labels: {},
        sharedLabels: s.labels,
        value: s.count,
      });
    }
    return Promise.resolve({
      name: this.seriesName,
      help: this.helpText,
      type: 'histogram',
      values,
      aggregator: 'sum',
    });
  }
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
  new SeriesHistogram(
    'cloudprice_http_request_duration_seconds',
    'Time from request received to response sent, by route pattern, method and status',
    bounds,
    all,
    () => table.clear(),
    registers,
  );

  return {
    record(route, method, status, seconds) {
      let methods = table.get(route);
      if (methods === undefined)
        table.set(route, (methods = new Map<string, Map<number, Series>>()));
      let statuses = methods.get(method);
      if (statuses === undefined) methods.set(method, (statuses = new Map<number, Series>()));
      let s = statuses.get(status);
      if (s === undefined) {
        s = new Series({ route, method, status: String(status) }, bounds.length);
        statuses.set(status, s);
      }
      s.count += 1;
      s.sum += seconds;
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i += 1;
      s.buckets[i]! += 1;
    },
  };
}
