// Regression (issue 35 item 9): the schedule decided "provider_b is due" from the states it read
// before taking the provider lock, and the sync then read its D24 baseline (the newest run) after
// that. A sync another replica committed between the two was newer than nothing this replica
// had noted, so it fetched and applied the provider a second time. The decision is now taken
// again under the lock: a provider that another replica synced meanwhile is left alone.
//
// Two replicas are two stores (two connection pools or SQLite connections, two sync services)
// on one database. The other replica's sync is run at the exact moment the schedule's first
// read of the states returns: the interleaving the review reproduced, made certain.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROVIDER_NAMES, type ProviderName } from '../../src/catalog/model.js';
import type { ProviderAdapter } from '../../src/catalog/offers.js';
import { MemoryInvalidationBus } from '../../src/infra/memory/memory-invalidation-bus.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { createSyncService, type SyncService } from '../../src/sync/sync-service.js';
import { scheduleSyncs } from '../../src/sync/sync-schedule.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { waitFor } from '../support/wait.js';

const silent = { error: () => undefined, info: () => undefined };
const HOUR = 3_600_000;

for (const backend of await storeBackends()) {
  describeStoreBackend('a scheduled sync across two replicas', backend, () => {
    let database: IsolatedDatabase;
    const replicas: { store: CatalogStore; sync: SyncService }[] = [];
    const fetches: string[] = [];
    const catalogs = generateCatalogs(90, 7);

    beforeAll(async () => {
      database = await backend.isolate();
      for (const name of ['r1', 'r2']) {
        const store = await createCatalogStore(database.url, {});
        await store.migrate();
        const adapters = Object.fromEntries(
          PROVIDER_NAMES.map((provider): [ProviderName, ProviderAdapter] => [
            provider,
            {
              name: provider,
              fetchCatalog: () => {
                fetches.push(`${name}:${provider}`);
                const catalog = catalogs.find((c) => c.provider === provider)!;
                return Promise.resolve(catalog);
              },
            },
          ]),
        );
        const sync = createSyncService({
          store,
          adapters,
          bus: new MemoryInvalidationBus(),
          log: silent,
        });
        replicas.push({ store, sync });
      }
    });
    afterAll(async () => {
      for (const replica of replicas) await replica.store.close();
      await database.drop();
    });

    it('syncs a due provider once when another replica synced it after the due check', async () => {
      const [r1, r2] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
      // Every provider but provider_b synced recently; provider_b never: due.
      await loadCatalogs(
        r1.store,
        catalogs.filter((c) => c.provider !== 'provider_b'),
      );
      let otherSync: Promise<unknown> | undefined;
      // r1's schedule reads the states (provider_b due), and r2 commits its sync just then.
      const racing: CatalogStore = Object.create(r1.store, {
        providerStates: {
          value: async () => {
            const states = await r1.store.providerStates();
            otherSync ??= r2.sync.sync(['provider_b']);
            await otherSync;
            return states;
          },
        },
      }) as CatalogStore;
      const errors: unknown[] = [];
      const stop = scheduleSyncs(racing, r1.sync, 6 * HOUR, (error) => errors.push(error));
      try {
        await waitFor(() => otherSync !== undefined, 10_000);
        await otherSync;
        // Whatever r1 does, it does within a moment of r2's commit; give it ample time.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      } finally {
        stop();
      }
      expect(errors).toEqual([]);
      expect(fetches.filter((f) => f.endsWith(':provider_b'))).toEqual(['r2:provider_b']);
      const runs = await r1.store.latestRecordedRun('provider_b');
      expect(runs?.run.success).toBe(true);
    });
  });
}
