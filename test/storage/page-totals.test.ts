// Memoised page totals must belong to the catalogue the page was read from: after a sync the
// one-statement path (every record already held) must not answer with the old total.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import type { InstanceQuery } from '../../src/catalog/record-query.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';

const QUERY: InstanceQuery = {
  filter: { provider: 'provider_b' },
  sort: 'vcpu',
  order: 'desc',
  limit: 5,
  offset: 0,
};

for (const backend of await storeBackends()) {
  describeStoreBackend('memoised page totals', backend, () => {
    let database: IsolatedDatabase;
    let store: CatalogStore;
    beforeAll(async () => {
      database = await backend.isolate();
      store = await createCatalogStore(database.url, {});
      await store.migrate();
    });
    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    it('follow the catalogue through a sync even when every record is held', async () => {
      const [, before] = generateCatalogs(90, 4);
      await loadCatalogs(store, [before!]);
      const first = await store.queryInstances(QUERY, { known: () => true });
      const again = await store.queryInstances(QUERY, { known: () => true });
      expect(first.total).toBe(before!.offers.length);
      expect(again).toEqual({ ids: first.ids, rows: [], total: first.total });

      const after = { ...before!, offers: before!.offers.slice(0, 7) };
      await loadCatalogs(store, [after], new Date(Date.now() + 1000));
      const changed = await store.queryInstances(QUERY, { known: () => true });
      expect(changed.total).toBe(7);
      const fresh = await store.queryInstances(QUERY);
      expect(changed.ids).toEqual(fresh.ids);
    });
  });
}
