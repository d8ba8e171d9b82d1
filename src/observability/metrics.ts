// The metrics registry of the process (D51, docs/adr/0007): one small interface every part
// records through, a no-op when METRICS_PORT is unset (nothing is measured, nothing costs), and
// a prom-client implementation scraped on its own listener (metrics-server.ts).
//
// For other capabilities (fx, history/events): call these methods on `services.metrics`; add a
// method here rather than importing prom-client elsewhere, so names and labels stay in one place.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { createHttpMetrics } from './http-metrics.js';

export type SyncOutcome = 'success' | 'failure' | 'aborted';

/** A provider's catalogue as the gauges report it, read at scrape time from the store. */
export interface CatalogueState {
  readonly provider: string;
  readonly instancesCount: number;
  readonly lastSuccessAt: Date | null;
}

export interface Metrics {
  /** False for the no-op: callers may skip work done only to measure. */
  readonly enabled: boolean;
  /** What the metrics listener serves; undefined for the no-op. */
  readonly registry?: Registry;
  /** One answered HTTP request; `route` is the route pattern (`/instances`), never the URL. */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** A request refused with 429: by the route's limit or the failed-authentication limit. */
  rateLimitRejected(route: string, limit: 'route' | 'auth_failures'): void;
  /** The counter store failed, so the limiter refused the request (D11: fail closed). */
  rateLimiterUnavailable(route: string): void;
  /** A lookup in a response or candidate cache (`instances`, `recommend`). */
  cacheLookup(cache: string, hit: boolean): void;
  /** One provider's sync attempt ended. */
  syncFinished(provider: string, outcome: SyncOutcome, seconds: number): void;
  /** A sync read the provider's catalogue and skipped `count` records that failed validation. */
  syncSkippedRecords(provider: string, count: number): void;
  /** One webhook delivery attempt ended (`delivered`, `failed`, `retrying`, `dropped`, …). */
  webhookDelivery(outcome: string): void;
  /** Gauges of records and last successful sync per provider, read when scraped. */
  watchCatalogue(read: () => Promise<readonly CatalogueState[]>): void;
  /** The exchange-rate table's reference date (`YYYY-MM-DD`), read when scraped. */
  watchExchangeRates(read: () => string | undefined): void;
}

export const noopMetrics: Metrics = {
  enabled: false,
  httpRequest: () => undefined,
  rateLimitRejected: () => undefined,
  rateLimiterUnavailable: () => undefined,
  cacheLookup: () => undefined,
  syncFinished: () => undefined,
  syncSkippedRecords: () => undefined,
  webhookDelivery: () => undefined,
  watchCatalogue: () => undefined,
  watchExchangeRates: () => undefined,
};

export interface PrometheusMetrics extends Metrics {
  readonly registry: Registry;
}

/** Request latencies: a cached page is well under a millisecond, a cold recommend ~100 ms. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Sync durations: a JSON provider takes under a second, one of offer files minutes. */
const SYNC_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

export function createPrometheusMetrics(now: () => number = Date.now): PrometheusMetrics {
  const registry = new Registry();
  // Process and runtime metrics: CPU, memory, heap spaces, GC, handles, event-loop lag.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const http = createHttpMetrics(HTTP_BUCKETS, registers);
  const rejections = new Counter({
    name: 'cloudprice_rate_limit_rejections_total',
    help: 'Requests refused with 429, by route pattern and the limit that refused them',
    labelNames: ['route', 'limit'] as const,
    registers,
  });
  const limiterErrors = new Counter({
    name: 'cloudprice_rate_limiter_unavailable_total',
    help: 'Requests refused with 503 because the rate-limit counter store failed (D11)',
    labelNames: ['route'] as const,
    registers,
  });
  // Counted in plain numbers per cache and handed to prom-client when scraped: a lookup is on
  // the path of every /instances request, where prom-client's inc costs ~1 µs.
  const lookups = new Map<string, { hit: number; miss: number }>();
  new Counter({
    name: 'cloudprice_cache_lookups_total',
    help: 'Cache lookups by cache and result (hit or miss)',
    labelNames: ['cache', 'result'] as const,
    registers,
    collect() {
      this.reset();
      for (const [cache, counts] of lookups) {
        for (const result of ['hit', 'miss'] as const) {
          if (counts[result] > 0) this.inc({ cache, result }, counts[result]);
        }
      }
    },
  });
  const syncs = new Counter({
    name: 'cloudprice_syncs_total',
    help: 'Provider sync attempts by provider and outcome (success, failure, aborted)',
    labelNames: ['provider', 'outcome'] as const,
    registers,
  });
  const syncDuration = new Histogram({
    name: 'cloudprice_sync_duration_seconds',
    help: 'Duration of provider sync attempts by provider and outcome',
    labelNames: ['provider', 'outcome'] as const,
    buckets: SYNC_BUCKETS,
    registers,
  });
  const skippedRecords = new Counter({
    name: 'cloudprice_sync_skipped_records_total',
    help: 'Upstream records skipped by syncs because they failed validation, by provider',
    labelNames: ['provider'] as const,
    registers,
  });
  const webhooks = new Counter({
    name: 'cloudprice_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'] as const,
    registers,
  });

  let readCatalogue: (() => Promise<readonly CatalogueState[]>) | undefined;
  let readRates: (() => string | undefined) | undefined;
  // Read from the store when scraped, so they show syncs done by any replica or the CLI.
  const records = new Gauge({
    name: 'cloudprice_catalogue_records',
    help: 'Available instance records in the catalogue, by provider',
    labelNames: ['provider'] as const,
    registers,
    collect: () => refreshCatalogue(),
  });
  const lastSuccess = new Gauge({
    name: 'cloudprice_last_successful_sync_timestamp_seconds',
    help: 'Unix time of the last successful sync by provider (absent: never synced)',
    labelNames: ['provider'] as const,
    registers,
    collect: () => refreshCatalogue(),
  });
  new Gauge({
    name: 'cloudprice_exchange_rates_age_seconds',
    help: 'Age of the exchange-rate table in use: now minus its ECB reference date (00:00 UTC)',
    registers,
    collect() {
      const asOf = readRates?.();
      const at = asOf === undefined ? Number.NaN : Date.parse(`${asOf}T00:00:00Z`);
      if (Number.isNaN(at)) this.reset();
      else this.set((now() - at) / 1000);
    },
  });

  // Both catalogue gauges are collected concurrently in one scrape: they share one store read.
  let reading: Promise<void> | undefined;
  function refreshCatalogue(): Promise<void> {
    reading ??= readCatalogueOnce().finally(() => {
      reading = undefined;
    });
    return reading;
  }

  async function readCatalogueOnce(): Promise<void> {
    if (readCatalogue === undefined) return;
    // A failed read (database down) leaves the gauges empty rather than failing the scrape.
    const states = await readCatalogue().catch(() => []);
    records.reset();
    lastSuccess.reset();
    for (const state of states) {
      records.set({ provider: state.provider }, state.instancesCount);
      if (state.lastSuccessAt !== null) {
        lastSuccess.set({ provider: state.provider }, state.lastSuccessAt.getTime() / 1000);
      }
    }
  }

  return {
    enabled: true,
    registry,
    httpRequest: (route, method, status, seconds) => http.record(route, method, status, seconds),
    rateLimitRejected: (route, limit) => rejections.inc({ route, limit }),
    rateLimiterUnavailable: (route) => limiterErrors.inc({ route }),
    cacheLookup(name, hit) {
      let counts = lookups.get(name);
      if (counts === undefined) lookups.set(name, (counts = { hit: 0, miss: 0 }));
      if (hit) counts.hit += 1;
      else counts.miss += 1;
    },
    syncFinished(provider, outcome, seconds) {
      syncs.inc({ provider, outcome });
      syncDuration.observe({ provider, outcome }, seconds);
    },
    // inc(0) too, so the series exists (at 0) once a provider was synced.
    syncSkippedRecords: (provider, count) => skippedRecords.inc({ provider }, count),
    webhookDelivery: (outcome) => webhooks.inc({ outcome }),
    watchCatalogue(read) {
      readCatalogue = read;
    },
    watchExchangeRates(read) {
      readRates = read;
    },
  };
}
