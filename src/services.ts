// Composition root: picks SQLite or PostgreSQL, memory or Redis, and builds every service.
// The HTTP app, the CLI and the scheduler all get their services from here.
import { InstanceListing } from './catalog/instance-listing.js';
import type { ProviderName } from './catalog/model.js';
import type { Config } from './config.js';
import { createHealthService } from './health/health-service.js';
import { CandidateCache } from './recommend/candidate-cache.js';
import type { AppServices } from './http/app-services.js';
import { createInfra, type Infra } from './infra/create-infra.js';
import { resolveApiKeys, type ResolvedKeys } from './keys/key-file.js';
import { createCatalogStore } from './storage/create-catalog-store.js';
import type { CatalogStore } from './storage/catalog-store.js';
import { createProviderAdapters } from './sync/providers/index.js';
import { createSyncService } from './sync/sync-service.js';

export interface Services extends AppServices {
  readonly keys: ResolvedKeys;
  readonly infra: Infra;
  close(): Promise<void>;
}

export interface ServiceLog {
  info(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}

export async function createServices(config: Config, log: ServiceLog): Promise<Services> {
  const keys = resolveApiKeys(config);
  const store: CatalogStore = await createCatalogStore(config.databaseUrl, {
    displayNames: {
      provider_a: config.providers.provider_a.displayName,
      provider_b: config.providers.provider_b.displayName,
      provider_c: config.providers.provider_c.displayName,
    } satisfies Record<ProviderName, string>,
  });
  await store.migrate();
  const infra = createInfra(config.redisUrl);
  const listing = new InstanceListing(store, config.cacheMaxEntries);
  const candidates = new CandidateCache(store);
  // Every replica drops its caches when any replica's sync changes the catalogue.
  const unsubscribe = infra.bus.subscribe(() => {
    listing.invalidate();
    candidates.invalidate();
  });
  const sync = createSyncService({
    store,
    adapters: createProviderAdapters(config),
    bus: infra.bus,
    log,
  });
  const health = createHealthService({
    store,
    counters: infra.counters,
    counterBackend: config.redisUrl ? 'redis' : 'memory',
  });
  return {
    config,
    keys,
    apiKeys: keys.keys,
    store,
    infra,
    counters: infra.counters,
    listing,
    candidates,
    sync,
    health,
    async close() {
      sync.abortAll();
      unsubscribe();
      await Promise.allSettled([infra.close(), store.close()]);
    },
  };
}
