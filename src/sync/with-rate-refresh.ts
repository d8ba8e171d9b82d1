// Exchange rates refreshed with every sync (D44), wherever it runs: a decorator of the sync
// service, so the rates module knows nothing of syncs.
import type { ExchangeRateService } from '../fx/exchange-rates.js';
import type { SyncReport, SyncService } from './sync-service.js';

/** The sync service, refreshing the rates with every sync wherever it ran (D44). */
export interface RateRefreshingSync extends SyncService {
  /**
   * A new catalogue version is being served: refreshes the rates, unless a sync of this process
   * is running (its own commits are new versions too, and it refreshes them itself).
   */
  catalogueChanged(): void;
}

/**
 * The sync service with a rates refresh beside every sync (D44: "refreshed with every sync"):
 * both run at once and the report waits for both, so a client that syncs and then asks for
 * prices in another currency gets the fresh rates. The refresh never fails the sync. Other
 * processes refresh theirs through catalogueChanged when they see the catalogue it committed.
 */
export function withRateRefresh(sync: SyncService, rates: ExchangeRateService): RateRefreshingSync {
  let running = 0;
  return {
    async sync(providers, options): Promise<SyncReport> {
      running += 1;
      try {
        const [report] = await Promise.all([sync.sync(providers, options), rates.refresh()]);
        return report;
      } finally {
        running -= 1;
      }
    },
    abortAll() {
      rates.abort();
      sync.abortAll();
    },
    catalogueChanged() {
      if (running === 0) void rates.refresh();
    },
  };
}
