import type { FastifyBaseLogger } from 'fastify';
import type { InstanceListing } from '../catalog/instance-listing.js';
import type { CatalogIndexHolder } from '../catalog/index/catalog-index-holder.js';
import type { Config } from '../config.js';
import type { KeyDigest } from '../keys/key-digest.js';
import type { DrainState } from '../lifecycle/drain.js';
import type { Metrics } from '../observability/metrics.js';
import type { ComponentWatch } from '../infra/component-watch.js';
import type { CounterStore } from '../infra/counter-store.js';
import type { CatalogStore } from '../storage/catalog-store.js';
import type { HealthService } from '../health/health-service.js';
import type { SyncService } from '../sync/sync-service.js';
import type { ExchangeRateService } from '../fx/exchange-rates.js';

/** What the HTTP layer is given by the composition root (src/services.ts). */
export interface AppServices {
  readonly config: Config;
  /** SHA-256 digests of the keys accepted in X-API-Key (configured or generated, D5/D6). */
  readonly apiKeyDigests: readonly KeyDigest[];
  readonly store: CatalogStore;
  readonly counters: CounterStore;
  /**
   * Told when the rate limiter's counter store fails a request and when it answers one again
   * (the `rate_limiter` component, src/health/component-states.ts): it logs once per change of
   * state and shows the failure in /health, so an outage is not logged once per refused request.
   */
  readonly limiterWatch: ComponentWatch;
  readonly listing: InstanceListing;
  /** The current catalogue index (catalog/index/): every read of the current catalogue. */
  readonly catalog: CatalogIndexHolder;
  readonly sync: SyncService;
  readonly health: HealthService;
  /** The exchange rates in use, for `currency` (D43). */
  readonly rates: ExchangeRateService;
  /** Set while the process drains after SIGTERM/SIGINT (src/lifecycle/drain.ts). */
  readonly drain?: DrainState;
  /** Request, rate-limit and cache metrics (D51); absent or no-op: nothing is recorded. */
  readonly metrics?: Metrics;
  /** Wall clock for rate-limit windows; tests pin it so a minute boundary cannot split a run. */
  readonly now?: () => number;
  /**
   * The process's one logger (src/observability/logger.ts), so request lines and the core's
   * lines share one format; undefined builds one from config, false logs nothing (tests).
   */
  readonly logger?: FastifyBaseLogger | false;
}
