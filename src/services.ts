// Composition root: picks SQLite or PostgreSQL, memory or Redis, and builds every service.
// The HTTP app, the CLI and the scheduler all get their services from here.
import { CatalogIndexHolder } from './catalog/index/catalog-index-holder.js';
import { InstanceListing } from './catalog/instance-listing.js';
import { installProviders } from './catalog/model.js';
import type { Config } from './config.js';
import { createDeliveryLoop, type DeliveryLoop } from './events/delivery-loop.js';
import { createExchangeRates } from './fx/create-exchange-rates.js';
import type { ExchangeRateService } from './fx/exchange-rates.js';
import { ComponentStates } from './health/component-states.js';
import { createHealthService } from './health/health-service.js';
import type { AppServices } from './http/app-services.js';
import { createInfra, type Infra } from './infra/create-infra.js';
import { createPrometheusMetrics, noopMetrics, type Metrics } from './observability/metrics.js';
import { resolveApiKeys, type ResolvedKeys } from './keys/key-file.js';
import { createCatalogStore } from './storage/create-catalog-store.js';
import type { CatalogStore } from './storage/catalog-store.js';
import { createProviderAdapters } from './sync/provider-adapters.js';
import { createSyncService } from './sync/sync-service.js';
import { withRateRefresh } from './sync/with-rate-refresh.js';

export interface Services extends AppServices {
  readonly keys: ResolvedKeys;
  readonly infra: Infra;
  readonly rates: ExchangeRateService;
  /** Prometheus metrics when METRICS_PORT is set (D51), otherwise a no-op. */
  readonly metrics: Metrics;
  /**
   * Sends queued webhook deliveries (D42). The server starts it (every replica runs one); the
   * CLI does not, so a `cloudprice sync` queues events that the servers deliver.
   */
  readonly deliveries: DeliveryLoop;
  close(): Promise<void>;
}

/**
 * What the core logs through: the process's one pino logger (src/observability/logger.ts);
 * tests may pass anything with these two methods.
 */
export interface ServiceLog {
  info(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}

export async function createServices(config: Config, log: ServiceLog): Promise<Services> {
  // The catalogue's providers are the ones this configuration was loaded with.
  installProviders(config.registry);
  const keys = resolveApiKeys(config);
  // Background failures of the database and Redis: logged once per state change, in /health.
  const components = new ComponentStates(log);
  const database = components.watch('database');
  const store: CatalogStore = await createCatalogStore(config.databaseUrl, {
    onBackgroundError: (error) => database.failed('pool', error),
    onConnected: () => database.recovered('pool'),
    displayNames: Object.fromEntries(
      config.registry.map((p) => [p.name, config.providers[p.name]!.displayName]),
    ),
  });
  await store.migrate();
  const infra = createInfra(config.redisUrl, {
    maxMemoryCounters: config.rateLimitMaxCounters,
    maxMemoryUntrustedCounters: config.rateLimitMaxUnauthenticatedCounters,
    watch: {
      counters: components.watch('rate_limiter'),
      bus: components.watch('invalidation_bus'),
    },
  });
  const metrics: Metrics =
    config.metricsPort === undefined ? noopMetrics : createPrometheusMetrics();
  const rates = createExchangeRates(config, log);
  // The bundled file (the default) or the live document; on failure the bundled recording is
  // used and /health says no refresh succeeded.
  await rates.refresh();
  // The current catalogue, in memory, per committed version (docs/architecture.md). Built
  // before the server listens; rebuilt after each local commit, on every invalidation message,
  // and when the background version check sees a commit made elsewhere.
  const catalog = new CatalogIndexHolder(store, {
    pollIntervalMs: config.catalogVersionPollMs,
    log,
  });
  await catalog.start();
  const listing = new InstanceListing(catalog, config.cacheMaxEntries);
  if (metrics.enabled) listing.onLookup = (hit) => metrics.cacheLookup('instances', hit);
  metrics.watchCatalogue(() => store.providerStates());
  metrics.watchExchangeRates(() => rates.current()?.asOf);
  const refreshCatalog = () =>
    catalog.refresh().then(
      () => undefined,
      () => undefined, // logged by the holder; the poll tries again
    );
  // A commit by this process is in the index before the apply resolves (read your writes); a
  // commit by another replica arrives as a message, or is seen by the version check.
  const unsubscribeCommits = store.onCommitted(refreshCatalog);
  const unsubscribe = infra.bus.subscribe(() => void refreshCatalog());
  // Converted prices are cached per currency: new rates make them stale.
  const unsubscribeRates = rates.onChange(() => listing.invalidate());
  const deliveries = createDeliveryLoop({
    store: store.webhooks,
    config: config.webhooks,
    log,
    metrics,
  });
  // A sync on any replica queues deliveries: look for them now rather than at the next poll.
  const unsubscribeDeliveries = infra.bus.subscribe(() => deliveries.kick());
  const sync = withRateRefresh(
    createSyncService({
      store,
      adapters: createProviderAdapters(config),
      bus: infra.bus,
      log,
      metrics,
    }),
    rates,
  );
  // Every sync refreshes the rates (D44) on every replica: the one that ran it beside it, the
  // others when they serve the catalogue it committed (every apply bumps the version), so no
  // replica converts at older rates until its own timer fires.
  const unsubscribeRateSwaps = catalog.onSwap(() => sync.catalogueChanged());
  const health = createHealthService({
    store,
    counters: infra.counters,
    counterBackend: config.redisUrl ? 'redis' : 'memory',
    exchangeRates: rates,
    components,
    catalog,
    staleDays: config.dataStaleDays,
  });
  return {
    config,
    keys,
    apiKeyDigests: keys.digests,
    store,
    infra,
    counters: infra.counters,
    limiterWatch: components.watch('rate_limiter'),
    listing,
    catalog,
    sync,
    health,
    rates,
    metrics,
    deliveries,
    async close() {
      sync.abortAll();
      unsubscribeDeliveries();
      await deliveries.stop();
      unsubscribe();
      unsubscribeRates();
      unsubscribeRateSwaps();
      unsubscribeCommits();
      catalog.stop();
      await Promise.allSettled([infra.close(), store.close()]);
    },
  };
}
