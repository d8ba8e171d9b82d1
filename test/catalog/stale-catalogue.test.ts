// Regression (issue 15 item 1, "stale prices after a sync this process did not hear about"):
// a sync committed by another process (a CLI `cloudprice sync` beside a SQLite server, or a
// replica whose Redis message was lost) sends no message here. The server must still serve the
// new catalogue within 5 s, from its background check of the committed version, on every backend.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';
import { eventually } from '../support/wait.js';

interface Listing {
  data: {
    instances: { id: number; pricing: { hourly_price: number } }[];
    pagination: { total: number };
    metadata: { last_sync: string | null };
  };
}

for (const backend of await storeBackends())
  describeStoreBackend('a sync committed by another process', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;
    let cli: CatalogStore;

    beforeEach(async () => {
      database = await backend.isolate();
      t = await createTestApp({ DATABASE_URL: database.url });
      // A second store on the same database: what a CLI process would open.
      cli = await createCatalogStore(database.url, {});
    });
    afterEach(async () => {
      await cli.close();
      await t.close();
      await database.drop();
    });

    const list = async (query: string) => {
      const response = await t.app.inject({ url: `/instances${query}`, headers: auth });
      expect(response.statusCode).toBe(200);
      return response.json<Listing>().data;
    };

    it('stale-prices defect: a sync this process did not hear about is served within 5 s, without any message', async () => {
      const [a] = generateCatalogs(60, 9);
      await loadCatalogs(t.services.store, [a!], new Date('2026-11-20T10:00:00.000Z'));
      const before = await list('?provider=provider_a&sort_by=instance_name');
      expect(before.pagination.total).toBe(a!.offers.length);
      // Cached now, and every record serialised: exactly what used to stay stale.
      await list('?provider=provider_a&sort_by=instance_name');

      const repriced = { ...a!, offers: a!.offers.map((o) => ({ ...o, hourlyMicros: 12_340 })) };
      await loadCatalogs(cli, [repriced], new Date('2026-11-20T11:00:00.000Z'));

      const after = await eventually(async () => {
        const data = await list('?provider=provider_a&sort_by=instance_name');
        if (data.metadata.last_sync !== '2026-11-20T11:00:00.000Z') throw new Error('stale');
        return data;
      }, 10_000);
      expect(after.instances.map((i) => i.pricing.hourly_price)).toEqual(
        before.instances.map(() => 0.0123),
      );
      expect(t.services.catalog.current?.version).toBe(await cli.catalogVersion());
    });
  });
