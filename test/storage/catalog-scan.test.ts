// CatalogStore.scanCatalog, what the in-memory index loads from (issue 9: the 50,000-record
// snapshot no longer exists whole as rows): pages by keyset in id order that together hold
// every available record once, all read in the snapshot the version belongs to, on every
// backend.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/catalog/index/catalog-index.js';
import { IndexRows } from '../../src/catalog/index/index-rows.js';
import { SCAN_PAGE_RECORDS } from '../../src/storage/catalog-queries.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import type { InstanceRow } from '../../src/catalog/records.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';

const EVERYTHING = {
  filter: {},
  sort: 'monthly_price',
  order: 'asc',
  limit: 100_000,
  offset: 0,
} as const;

for (const backend of await storeBackends())
  describeStoreBackend('catalogue scan', backend, () => {
    let database: IsolatedDatabase;
    let store: CatalogStore;
    let writer: CatalogStore;

    beforeAll(async () => {
      database = await backend.isolate();
      store = await createCatalogStore(database.url, {});
      await store.migrate();
      // Two full pages and a bit, some records unavailable (the scan must leave them out, D15).
      const catalogs = generateCatalogs(SCAN_PAGE_RECORDS * 2 + 300, 3);
      await loadCatalogs(store, catalogs);
      const [a] = catalogs;
      await loadCatalogs(store, [{ ...a!, offers: a!.offers.slice(0, -50) }]);
      writer = await createCatalogStore(database.url, {});
    }, 120_000);
    afterAll(async () => {
      await writer.close();
      await store.close();
      await database.drop();
    });

    it('hands over every available record once, by id, in pages of SCAN_PAGE_RECORDS', async () => {
      const sizes: number[] = [];
      const ids = await store.scanCatalog(async ({ pages }) => {
        const seen: number[] = [];
        for await (const page of pages) {
          sizes.push(page.length);
          seen.push(...page.map((row) => row.id));
        }
        return seen;
      });
      const all = await store.queryInstances(EVERYTHING);
      expect(ids).toEqual([...all.ids].sort((x, y) => x - y));
      expect(sizes.slice(0, -1).every((size) => size === SCAN_PAGE_RECORDS)).toBe(true);
      expect(sizes.length).toBe(Math.ceil(all.total / SCAN_PAGE_RECORDS));
    });

    it('reads every page in the snapshot of its version, even when a sync commits between pages', async () => {
      const before = await store.readCatalog();
      const [, b] = generateCatalogs(SCAN_PAGE_RECORDS * 2 + 300, 3);
      const rows: InstanceRow[] = [];
      const version = await store.scanCatalog(async ({ version, pages }) => {
        let first = true;
        for await (const page of pages) {
          rows.push(...page);
          if (first) {
            first = false;
            // Another process (a CLI sync, another replica) drops provider b's records now.
            await loadCatalogs(writer, [{ ...b!, offers: b!.offers.slice(0, 10) }]);
          }
        }
        return version;
      });
      expect(version).toBe(before.version);
      expect(rows).toEqual(before.rows);
      expect(await store.catalogVersion()).toBeGreaterThan(version);
    });

    it('builds the index the SQL path agrees with, as the holder loads it', async () => {
      const index = CatalogIndex.build(await store.scanCatalog((scan) => IndexRows.read(scan)));
      const all = await store.queryInstances(EVERYTHING);
      expect(index.version).toBe(await store.catalogVersion());
      expect(index.query(EVERYTHING).ids).toEqual(all.ids);
      expect(index.records).toEqual((await store.readCatalog()).rows);
    });
  });
