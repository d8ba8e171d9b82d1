// GET /health as a core service (spec 4.1, section 3, D32, D33, D11).
import { ageDays, DEFAULT_DATA_STALE_DAYS } from '../catalog/freshness.js';
import { PROVIDER_NAMES, providerEntry, type ProviderName } from '../catalog/model.js';
import type { CounterStore } from '../infra/counter-store.js';
import type { CatalogStore, ProviderSyncState } from '../storage/catalog-store.js';
import type { ExchangeRatesHealth } from '../fx/exchange-rates.js';
import type { ComponentReport } from './component-states.js';
import type { CatalogIndexStatus } from '../catalog/index/catalog-index-holder.js';

export type HealthStatus = 'healthy' | 'degraded' | 'unhealthy';

const HOUR_MS = 3_600_000;
/** A dependency that does not answer within this is reported down rather than awaited. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

export interface ProviderHealth {
  name: ProviderName;
  status: HealthStatus;
  /** `YYYY-MM-DD HH:MM:SS` UTC of the last successful sync, or null if never (D2). */
  last_sync: string | null;
  sync_status: 'success' | 'failed' | 'never';
  regions_count: number;
  instances_count: number;
  error?: string;
  /**
   * Extension (issue 35 item 2): upstream records the latest sync skipped because they failed
   * validation (their stored records kept their previous state); present when not 0, and then
   * the provider is at best degraded, with `error` naming the count.
   */
  skipped_records?: number;
  /** Provenance of the listed figures (D37, D57); null before the first successful sync. */
  data_source: DataSourceHealth | null;
}

export interface DataSourceHealth {
  kind: 'snapshot' | 'live';
  observed_at: string;
  source: string;
  /** D57: whole days from observed_at to now, rounded down (0 for a time not yet reached). */
  age_days: number;
  /** D57: age_days > DATA_STALE_DAYS. Shown, never folded into the status (D32 is unchanged). */
  stale: boolean;
  /** Region codes whose availability is inferred, not recorded (ProviderEntry.inferredRegions). */
  inferred_regions?: string[];
}

/** The most recent background failure of a component (a dropped connection), kept after recovery. */
export interface LastError {
  message: string;
  code?: string;
  /** ISO time it started. */
  at: string;
}

export interface HealthReport {
  status: HealthStatus;
  timestamp: string;
  components: {
    database: { status: HealthStatus; latency_ms: number; error?: string; last_error?: LastError };
    rate_limiter: {
      status: HealthStatus;
      latency_ms: number;
      backend: string;
      error?: string;
      last_error?: LastError;
    };
    /** Extension: Redis pub/sub between replicas (present with REDIS_URL). */
    invalidation_bus?: {
      status: HealthStatus;
      backend: 'redis';
      error?: string;
      last_error?: LastError;
    };
    providers: ProviderHealth[];
    /** D44 (extension): the rates used for `currency`. */
    exchange_rates?: ExchangeRatesHealth;
    /** Extension (issue 9): the in-memory catalogue index that answers the reads. */
    catalog_index?: CatalogIndexHealth;
  };
  summary: {
    total_providers: number;
    healthy_providers: number;
    total_regions: number;
    total_instances: number;
  };
}

/**
 * Extension (issue 9): whether the catalogue reads (/instances, /recommend, /instance-types,
 * CSV) are served from the in-memory index, and which committed catalogue version it holds.
 * healthy: serving, and the last check of the store succeeded; degraded: serving the last
 * index while the store cannot be read (reads still answer); unhealthy: no index yet.
 * Informational: the overall status stays the D33 rule.
 */
export interface CatalogIndexHealth {
  status: HealthStatus;
  /** True once an index exists: every catalogue read is answered from memory, never SQL. */
  serving_reads: boolean;
  /** The committed catalogue version the index holds (catalog_version), or null. */
  version: number | null;
  /** Available records in the index. */
  records: number;
  /** When this process built the index being served (ISO), or null. */
  built_at: string | null;
  /** True while the last background check of the store failed (the last index is served). */
  store_failing: boolean;
}

export interface HealthService {
  check(): Promise<HealthReport>;
}

export function formatSyncTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * D32: healthy if synced successfully under 24 h ago and the latest attempt succeeded. Extension
 * (issue 35 item 2): a latest attempt that skipped upstream records is degraded too: part of
 * the provider's catalogue is older than its last sync says.
 */
export function providerHealth(
  state: ProviderSyncState,
  now: number,
  staleDays: number = DEFAULT_DATA_STALE_DAYS,
): ProviderHealth {
  const latest = state.latestRun;
  const lastSuccess = state.lastSuccessAt;
  const age = lastSuccess ? now - lastSuccess.getTime() : Infinity;
  const latestFailed = latest !== null && !latest.success;
  const skipped = latest?.skippedRecords ?? 0;
  let status: HealthStatus;
  if (lastSuccess === null || age > 48 * HOUR_MS) status = 'unhealthy';
  else if (age >= 24 * HOUR_MS || latestFailed || skipped > 0) status = 'degraded';
  else status = 'healthy';
  const health: ProviderHealth = {
    name: state.provider,
    status,
    last_sync: lastSuccess ? formatSyncTime(lastSuccess) : null,
    sync_status: latest === null ? 'never' : latest.success ? 'success' : 'failed',
    regions_count: state.regionsCount,
    instances_count: state.instancesCount,
    data_source: dataSourceHealth(state.provider, state.dataSource, now, staleDays),
  };
  if (skipped > 0) health.skipped_records = skipped;
  if (latestFailed && latest.errorMessage) health.error = latest.errorMessage;
  else if (lastSuccess === null) health.error = 'never synchronised';
  else if (skipped > 0) health.error = skippedMessage(skipped);
  return health;
}

function skippedMessage(count: number): string {
  const records = count === 1 ? '1 upstream record' : `${count} upstream records`;
  return `The last sync skipped ${records} that failed validation; their previous prices and availability are kept`;
}

function dataSourceHealth(
  provider: ProviderName,
  source: ProviderSyncState['dataSource'],
  now: number,
  staleDays: number,
): DataSourceHealth | null {
  if (source === null) return null;
  const age = ageDays(source.observedAt, now);
  const inferred = providerEntry(provider)?.inferredRegions?.(source) ?? [];
  return {
    kind: source.kind,
    observed_at: source.observedAt.toISOString(),
    source: source.source,
    age_days: age,
    stale: age > staleDays,
    ...(inferred.length > 0 && { inferred_regions: [...inferred] }),
  };
}

const NO_ANSWER = `no answer within ${HEALTH_CHECK_TIMEOUT_MS / 1000} s`;

async function timed(
  probe: () => Promise<void>,
): Promise<{ ok: boolean; latencyMs: number; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), HEALTH_CHECK_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([probe().then(() => 'answered' as const), timedOut]);
    const latencyMs = Math.round(performance.now() - started);
    return outcome === 'answered'
      ? { ok: true, latencyMs }
      : { ok: false, latencyMs, error: NO_ANSWER };
  } catch {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      error: 'not reachable',
    };
  } finally {
    clearTimeout(timer);
  }
}

export function createHealthService(deps: {
  store: CatalogStore;
  counters: CounterStore;
  counterBackend: string;
  exchangeRates?: { health(now: number): ExchangeRatesHealth };
  /** Background failures (src/health/component-states.ts), by /health component name. */
  components?: { report(component: string): ComponentReport };
  /** The catalogue index holder, for the catalog_index extension. */
  catalog?: { status(): CatalogIndexStatus };
  /** D57: DATA_STALE_DAYS; DEFAULT_DATA_STALE_DAYS when absent. */
  staleDays?: number;
  now?: () => number;
}): HealthService {
  const lastError = (component: string): { last_error?: LastError } => {
    const last = deps.components?.report(component).lastError;
    if (last === undefined) return {};
    const { since, ...rest } = last;
    return { last_error: { ...rest, at: since } };
  };
  const busFailing = () => deps.components?.report('invalidation_bus').failing;
  const now = deps.now ?? Date.now;
  return {
    async check() {
      const [database, limiter] = await Promise.all([
        timed(() => deps.store.ping()),
        timed(() => deps.counters.ping()),
      ]);
      let states: readonly ProviderSyncState[] = [];
      if (database.ok) {
        states = await deps.store.providerStates().catch(() => {
          database.ok = false;
          database.error = 'query failed';
          return [];
        });
      }
      const at = now();
      const providers = database.ok
        ? states.map((s) => providerHealth(s, at, deps.staleDays))
        : PROVIDER_NAMES.map((name) => ({
            name,
            status: 'unhealthy' as const,
            last_sync: null,
            sync_status: 'never' as const,
            regions_count: 0,
            instances_count: 0,
            error: 'database unavailable',
            data_source: null,
          }));
      const exchangeRates = deps.exchangeRates?.health(at);
      const bus = deps.counterBackend === 'redis' ? busFailing() : undefined;
      const componentsHealthy =
        database.ok &&
        limiter.ok &&
        bus === undefined &&
        providers.every((p) => p.status === 'healthy') &&
        (exchangeRates === undefined || exchangeRates.status === 'healthy');
      const status: HealthStatus =
        !database.ok || providers.every((p) => p.status === 'unhealthy')
          ? 'unhealthy'
          : componentsHealthy
            ? 'healthy'
            : 'degraded';
      return {
        status,
        timestamp: new Date(at).toISOString(),
        components: {
          database: {
            status: database.ok ? 'healthy' : 'unhealthy',
            latency_ms: database.latencyMs,
            ...(database.error !== undefined && { error: database.error }),
            ...lastError('database'),
          },
          rate_limiter: {
            status: limiter.ok ? 'healthy' : 'unhealthy',
            latency_ms: limiter.latencyMs,
            backend: deps.counterBackend,
            ...(limiter.error !== undefined && { error: limiter.error }),
            ...lastError('rate_limiter'),
          },
          ...(deps.counterBackend === 'redis' && {
            invalidation_bus: {
              status: bus === undefined ? ('healthy' as const) : ('degraded' as const),
              backend: 'redis' as const,
              ...(bus !== undefined && { error: bus.message }),
              ...lastError('invalidation_bus'),
            },
          }),
          providers,
          ...(exchangeRates !== undefined && { exchange_rates: exchangeRates }),
          ...(deps.catalog !== undefined && { catalog_index: catalogIndexHealth(deps.catalog) }),
        },
        summary: {
          total_providers: providers.length,
          healthy_providers: providers.filter((p) => p.status === 'healthy').length,
          total_regions: providers.reduce((n, p) => n + p.regions_count, 0),
          total_instances: providers.reduce((n, p) => n + p.instances_count, 0),
        },
      };
    },
  };
}

function catalogIndexHealth(catalog: { status(): CatalogIndexStatus }): CatalogIndexHealth {
  const status = catalog.status();
  const serving = status.version !== undefined;
  return {
    status: !serving ? 'unhealthy' : status.failing ? 'degraded' : 'healthy',
    serving_reads: serving,
    version: status.version ?? null,
    records: status.records,
    built_at: status.builtAt === undefined ? null : new Date(status.builtAt).toISOString(),
    store_failing: status.failing,
  };
}
