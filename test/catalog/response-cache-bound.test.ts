// Bounded memory where clients choose the key (issue 9 item 3): every distinct /instances query
// is a new response-cache key, and bodies of 100 records are tens of kilobytes. The cache is
// bounded in bytes (bodies and keys), not only in entries, and a new catalogue version starts
// an empty cache rather than keeping the old version's bodies beside the new ones.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CatalogIndexHolder } from '../../src/catalog/index/catalog-index-holder.js';
import { InstanceListing } from '../../src/catalog/instance-listing.js';
import { parseInstanceQuery } from '../../src/catalog/instance-query.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';

const MAX_BYTES = 400_000;

const sqlite = (await storeBackends()).filter((backend) => backend.name === 'sqlite');
for (const backend of sqlite)
  describeStoreBackend('the /instances response cache', backend, () => {
    let database: IsolatedDatabase;
    let store: CatalogStore;
    let holder: CatalogIndexHolder;

    beforeAll(async () => {
      database = await backend.isolate();
      store = await createCatalogStore(database.url, {});
      await store.migrate();
      await loadCatalogs(store, generateCatalogs(600, 4));
      holder = new CatalogIndexHolder(store, { pollIntervalMs: 0 });
      await holder.start();
    });
    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    const body = (listing: InstanceListing, raw: Record<string, string>) => {
      const parsed = parseInstanceQuery(raw);
      if (!parsed.ok) throw new Error('valid query refused');
      return listing.list(parsed.value);
    };

    it('response-cache flood defect: distinct queries never hold more than the byte bound', async () => {
      const listing = new InstanceListing(holder, 1_000_000, MAX_BYTES);
      let sent = 0;
      for (let offset = 0; offset < 400; offset++) {
        // Each asked twice: a query asked once is remembered without a body.
        for (let asked = 0; asked < 2; asked++) {
          sent += (await body(listing, { limit: '100', offset: String(offset) })).length;
          expect(listing.cachedBytes).toBeLessThanOrEqual(MAX_BYTES);
        }
      }
      // The flood was far larger than the bound, and the cache still holds what fits.
      expect(sent).toBeGreaterThan(MAX_BYTES * 10);
      expect(listing.cachedBytes).toBeGreaterThan(MAX_BYTES / 2);
    });

    it('a query asked once is remembered by its key alone, not its body', async () => {
      const listing = new InstanceListing(holder, 1_000_000, MAX_BYTES);
      let sent = 0;
      let keys = 0;
      for (let offset = 0; offset < 400; offset++) {
        const parsed = parseInstanceQuery({ limit: '100', offset: String(offset) });
        if (!parsed.ok) throw new Error('valid query refused');
        sent += (await listing.list(parsed.value)).length;
        keys += parsed.value.cacheKey.length * 2 + 64;
      }
      expect(sent).toBeGreaterThan(MAX_BYTES * 10);
      expect(listing.cachedBytes).toBe(keys);
    });

    it('a hit is the miss body with cached true and query time 0, byte for byte, on every hit', async () => {
      const listing = new InstanceListing(holder, 1_000, MAX_BYTES);
      const raw = { limit: '40', sort_by: 'price', order: 'desc', max_price: '300.5' };
      const miss = (await body(listing, raw)).toString();
      // The first hit makes the bytes from the same index again, later hits send those bytes.
      const first = await body(listing, raw);
      const second = await body(listing, raw);
      expect(Buffer.isBuffer(first)).toBe(true);
      expect(second).toBe(first);
      const expected = miss
        .replace('"cached":false', '"cached":true')
        .replace(/"query_time_ms":\d+/, '"query_time_ms":0');
      expect(expected).not.toBe(miss);
      expect(first.toString()).toBe(expected);
      expect((JSON.parse(miss) as { data: { instances: unknown[] } }).data.instances).toHaveLength(
        40,
      );
    });

    it('a new catalogue version starts an empty cache', async () => {
      const listing = new InstanceListing(holder, 1_000, MAX_BYTES);
      const cachedFlag = async () =>
        (
          JSON.parse((await body(listing, { limit: '100' })).toString()) as {
            data: { metadata: { cached: boolean } };
          }
        ).data.metadata.cached;
      expect(await cachedFlag()).toBe(false);
      expect(await cachedFlag()).toBe(true);
      expect(listing.cachedBytes).toBeGreaterThan(0);
      const [a] = generateCatalogs(600, 5);
      await loadCatalogs(store, [a!], new Date(Date.now() + 60_000));
      await holder.refresh();
      expect(await cachedFlag()).toBe(false);
    });
  });
