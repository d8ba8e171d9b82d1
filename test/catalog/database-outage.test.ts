// Regression (issue 9 item 1, "reads survive the database"): with PostgreSQL unreachable or
// frozen, every uncached /instances waited for the database (10 s) and answered 500
// QUERY_FAILED. Reads of the current catalogue are answered from the last in-memory index; the
// background version check is the only thing that talks to the database, and reads never wait
// for it; /health says the database is down. Reproduced through a real TCP proxy in front of
// PostgreSQL that stops forwarding (frozen) or closes everything (unreachable).
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  CatalogCheckTimeoutError,
  CatalogIndexHolder,
} from '../../src/catalog/index/catalog-index-holder.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';
import { eventually, waitFor } from '../support/wait.js';

interface Listing {
  data: {
    instances: { id: number; pricing: { hourly_price: number } }[];
    pagination: { total: number };
    metadata: { cached: boolean };
  };
}

/** Distinct queries: each one a cache miss the first time it is asked. */
const QUERIES = [
  '?provider=provider_a',
  '?min_vcpu=4&sort_by=price_per_vcpu',
  '?max_memory_gb=16&order=desc&limit=7',
  '?region=ap-northeast-1&sort_by=instance_name',
  '?has_gpu=false&max_price=120.5&offset=3',
  '?currency=EUR&sort_by=memory_gb',
];

const postgres = (await storeBackends()).filter((backend) => backend.name === 'postgres');
for (const backend of postgres)
  describeStoreBackend('reads while the database is down', backend, () => {
    let database: IsolatedDatabase;
    let proxy: TcpProxy;
    let t: TestApp;
    let direct: CatalogStore;

    beforeEach(async () => {
      database = await backend.isolate();
      proxy = await startTcpProxy('127.0.0.1', Number(new URL(database.url).port || 5432));
      t = await createTestApp({ DATABASE_URL: proxy.via(database.url) });
      // Another process's store, not behind the proxy (a CLI or another replica).
      direct = await createCatalogStore(database.url, {});
      await loadCatalogs(t.services.store, generateCatalogs(240, 21));
    });
    afterEach(async () => {
      proxy.thaw();
      await proxy.close();
      await direct.close();
      await t.close();
      await database.drop();
    });

    const get = (url: string) => t.app.inject({ url, headers: auth });
    const listings = async () =>
      Promise.all(
        QUERIES.map(async (query) => {
          const response = await get(`/instances${query}`);
          expect(response.statusCode).toBe(200);
          return response.json<Listing>().data;
        }),
      );
    const recommend = async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/recommend',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: { stack: ['nginx', 'postgresql'], scale: 'small' },
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ data: { recommendations: { instance: { id: number } }[] } }>().data;
    };
    const databaseStatus = async () => {
      const response = await get('/health');
      return {
        code: response.statusCode,
        database: response.json<{ components: { database: { status: string } } }>().components
          .database.status,
      };
    };

    it('database-outage defect: a frozen PostgreSQL does not stop uncached /instances or /recommend', async () => {
      const before = await listings();
      const recommendedBefore = await recommend();
      expect(recommendedBefore.recommendations.length).toBeGreaterThan(0);
      expect((await databaseStatus()).database).toBe('healthy');

      proxy.freeze();
      // The background version check has sent its query into the frozen connection and waits.
      await waitFor(() => proxy.heldBytes > 0 && t.services.catalog.status().checking, 10_000);
      t.services.listing.invalidate(); // every query below is a miss again

      const during = await listings();
      expect(t.services.catalog.status().checking).toBe(true); // still stuck, never awaited
      for (const [i, data] of during.entries()) {
        expect(data.metadata.cached).toBe(false);
        expect(data.pagination.total).toBe(before[i]!.pagination.total);
        expect(data.instances).toEqual(before[i]!.instances);
      }
      expect(await recommend()).toEqual(recommendedBefore);
      expect(await databaseStatus()).toEqual({ code: 503, database: 'unhealthy' });

      // The database comes back; a sync committed elsewhere is noticed without any message.
      proxy.thaw();
      const [a] = generateCatalogs(240, 21);
      const repriced = { ...a!, offers: a!.offers.map((o) => ({ ...o, hourlyMicros: 4_321_000 })) };
      await loadCatalogs(direct, [repriced], new Date(Date.now() + 60_000));
      await eventually(async () => {
        const response = await get('/instances?provider=provider_a&limit=5');
        const prices = response.json<Listing>().data.instances.map((r) => r.pricing.hourly_price);
        if (!prices.every((p) => p === 4.321)) throw new Error('still the old catalogue');
      }, 30_000);
      await eventually(async () => {
        if ((await databaseStatus()).database !== 'healthy') throw new Error('still down');
      }, 10_000);
    });

    it('database-outage defect: an unreachable PostgreSQL does not stop uncached /instances or /recommend', async () => {
      const before = await listings();
      const recommendedBefore = await recommend();

      await proxy.cut();
      t.services.listing.invalidate();
      // A check fails (connection refused) and the last index is still served.
      await waitFor(() => t.services.catalog.status().failing, 20_000);
      const during = await listings();
      for (const [i, data] of during.entries()) {
        expect(data.metadata.cached).toBe(false);
        expect(data.instances).toEqual(before[i]!.instances);
      }
      expect(await recommend()).toEqual(recommendedBefore);
      expect(await databaseStatus()).toEqual({ code: 503, database: 'unhealthy' });

      await proxy.reopen();
      await waitFor(() => !t.services.catalog.status().failing, 20_000);
      expect((await databaseStatus()).database).toBe('healthy');
    });

    it('frozen-check defect: a check that gets no answer gives up on its own timeout, and the next one runs', async () => {
      const holder = new CatalogIndexHolder(t.services.store, {
        pollIntervalMs: 0,
        checkTimeoutMs: 300,
      });
      const first = await holder.start();
      proxy.freeze();
      await expect(holder.refresh()).rejects.toBeInstanceOf(CatalogCheckTimeoutError);
      expect(holder.status()).toMatchObject({ failing: true, checking: false });
      // Not queued behind the stuck one: it runs, and gives up in turn.
      await expect(holder.refresh()).rejects.toBeInstanceOf(CatalogCheckTimeoutError);
      expect(holder.current).toBe(first);
      proxy.thaw();
      // Answers come again (a loaded machine may need more than one 300 ms try).
      expect(await eventually(() => holder.refresh(), 20_000)).toBe(first);
      expect(holder.status().failing).toBe(false);
      holder.stop();
    });
  });
