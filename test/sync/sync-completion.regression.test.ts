// Regression (issue 15 item 9): a sync's completed_at was taken before its apply began, and the
// "another replica finished this provider while I waited for the lock" check (D24) compared that
// time with the waiting request's start. A request that arrived while another replica's sync
// was applying found a run that looked older than itself, and fetched and applied the provider
// again. Now the check compares history row ids. Since issue 22 a sync has one completed_at,
// taken when its apply begins, on the run, its history, feed and events and in its report.
//
// Two replicas are two stores (two connection pools, two sync services) on one PostgreSQL
// database; provider_b's apply on the first is held inside its transaction by a row lock taken
// on a third connection. PostgreSQL only: SQLite serves one process, whose concurrent requests
// share one sync without looking at the history (sync-service `running`).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROVIDER_NAMES, type ProviderName } from '../../src/catalog/model.js';
import { MemoryInvalidationBus } from '../../src/infra/memory/memory-invalidation-bus.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import type { ProviderAdapter, ProviderCatalog } from '../../src/catalog/offers.js';
import { createSyncService, type SyncService } from '../../src/sync/sync-service.js';
import { UpstreamError } from '../../src/sync/upstream/upstream-error.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { eventually, waitFor } from '../support/wait.js';

const silent = { error: () => undefined, info: () => undefined };

const postgres = (await storeBackends()).filter((backend) => backend.name === 'postgres');
for (const backend of postgres) {
  describeStoreBackend('sync coordination across replicas', backend, () => {
    let database: IsolatedDatabase;
    let watcher: pg.Client;
    const replicas: { name: string; store: CatalogStore; sync: SyncService }[] = [];
    let fetches: ProviderName[] = [];
    /** What the fake upstream answers each fetch (the nth fetch of this test, from 0). */
    let serve: (nth: number) => Promise<ProviderCatalog>;

    function adapters(): Record<ProviderName, ProviderAdapter> {
      const of = (name: ProviderName): ProviderAdapter => ({
        name,
        fetchCatalog: () => {
          fetches.push(name);
          return serve(fetches.length - 1);
        },
      });
      return Object.fromEntries(PROVIDER_NAMES.map((name) => [name, of(name)]));
    }

    /** Whether a connection of this replica waits for a lock (a row, or the advisory lock). */
    async function waitsForLock(replica: string): Promise<boolean> {
      const waiting = await watcher.query(
        `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
        [replica],
      );
      return (waiting.rowCount ?? 0) > 0;
    }

    beforeAll(async () => {
      database = await backend.isolate();
      watcher = new pg.Client({ connectionString: database.url });
      await watcher.connect();
      for (const replica of ['r1', 'r2']) {
        const name = `cp_${replica}_${randomUUID().slice(0, 8)}`;
        const url = new URL(database.url);
        url.searchParams.set('application_name', name);
        const store = await createCatalogStore(url.toString(), {});
        await store.migrate();
        const sync = createSyncService({
          store,
          adapters: adapters(),
          bus: new MemoryInvalidationBus(),
          log: silent,
        });
        replicas.push({ name, store, sync });
      }
    });
    afterAll(async () => {
      for (const replica of replicas) await replica.store.close();
      await watcher.end();
      await database.drop();
    });

    it('completed_at defect: a request arriving while another replica applies reports that sync instead of fetching again, with one completed_at', async () => {
      const [r1, r2] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
      const [, b] = generateCatalogs(90, 5);
      await loadCatalogs(r1.store, [b!]);
      const { rows } = await watcher.query<{ last: number }>(
        `select max(id) as last from sync_runs where provider = 'provider_b'`,
      );
      const seen = rows[0]!.last;
      const upstream = {
        ...b!,
        offers: b!.offers.map((o) => ({ ...o, monthlyMicros: o.monthlyMicros + 10_000 })),
      };
      serve = () => Promise.resolve(upstream);
      fetches = [];

      // Hold one provider_b region row: r1's apply writes, then waits for it inside its
      // transaction (its run's data time already taken).
      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      try {
        await blocker.query('begin');
        await blocker.query(
          `select r.id from regions r join providers p on p.id = r.provider_id
            where p.name = 'provider_b' and r.region_code = $1 for update`,
          [upstream.offers[0]!.regionCode],
        );
        const first = r1.sync.sync(['provider_b']);
        await eventually(async () => {
          if (!(await waitsForLock(r1.name))) throw new Error('r1 is not applying yet');
        }, 10_000);
        // r2's request begins now, while r1's sync is applying, and waits for the provider lock.
        const second = r2.sync.sync(['provider_b']);
        await eventually(async () => {
          if (!(await waitsForLock(r2.name))) throw new Error('r2 does not wait for the lock');
        }, 10_000);
        const released = await blocker.query<{ now: string }>(
          `select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`,
        );
        await blocker.query('commit');
        const [one, two] = await Promise.all([first, second]);

        expect(one.providers[0]?.success, JSON.stringify(one)).toBe(true);
        expect(two.providers[0]?.success, JSON.stringify(two)).toBe(true);
        expect(two.providers[0]?.pricing_synced).toBe(one.providers[0]?.pricing_synced);
        // One fetch, one run: r2 reported r1's sync (D24).
        expect(fetches).toEqual(['provider_b']);
        const runs = await watcher.query<{ completed_at: string; sync_id: string }>(
          `select completed_at, sync_id from sync_runs where provider = 'provider_b' and id > $1`,
          [seen],
        );
        expect(runs.rows.map((row) => row.sync_id)).toEqual([one.sync_id]);
        // Issue 22: one sync, one completed_at. The run (health last_sync), its history periods
        // and both reports carry the same instant, taken when its apply began (before the wait).
        const completedAt = Number(runs.rows[0]!.completed_at);
        expect(completedAt).toBeLessThan(Number(released.rows[0]!.now));
        const periods = await watcher.query<{ valid_from: string }>(
          `select distinct valid_from from price_history where sync_id = $1`,
          [one.sync_id],
        );
        expect(periods.rows.map((row) => Number(row.valid_from))).toEqual([completedAt]);
        expect(Date.parse(one.completed_at)).toBe(completedAt);
        // r2 began after r1's data time: its report never says it completed before it began.
        expect(Date.parse(two.completed_at)).toBe(
          Math.max(completedAt, Date.parse(two.started_at)),
        );
      } finally {
        await blocker.end();
      }
    });

    // D24 for a sync that fails: its failure was recorded after it let go of the provider lock,
    // so the request waiting for that lock found no newer run and fetched again (a second wait
    // on an upstream that had just failed). The failure is now recorded before the lock is
    // released. To make the old order visible, a third connection holds sync_runs against
    // writes (SHARE lock): reads go on, recording waits.
    it('D24 defect: a request waiting for a sync that fails reports its failure instead of fetching again', async () => {
      const [r1, r2] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
      let fail!: () => void;
      const failing = new Promise<never>((_, reject) => {
        fail = () => reject(new UpstreamError('UPSTREAM_HTTP_ERROR', 'provider_b answered 502'));
      });
      failing.catch(() => undefined);
      serve = (nth) =>
        nth === 0 ? failing : Promise.reject(new UpstreamError('UPSTREAM_TIMEOUT', 'slow'));
      fetches = [];
      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      try {
        await blocker.query('begin');
        await blocker.query('lock table sync_runs in share mode');
        const first = r1.sync.sync(['provider_b']);
        await waitFor(() => fetches.length === 1, 10_000);
        const second = r2.sync.sync(['provider_b']);
        await eventually(async () => {
          if (!(await waitsForLock(r2.name))) throw new Error('r2 does not wait for the lock');
        }, 10_000);
        fail();
        // Either r2 went on to fetch (the failure not recorded while r1 held the lock), or r1
        // records its failure while r2 still waits for the lock.
        await eventually(async () => {
          if (fetches.length > 1) return;
          if (!(await waitsForLock(r1.name)) || !(await waitsForLock(r2.name)))
            throw new Error('neither');
        }, 10_000);
        await blocker.query('commit');
        const [one, two] = await Promise.all([first, second]);

        expect(one.providers[0]?.error_details?.code).toBe('UPSTREAM_HTTP_ERROR');
        expect(fetches).toEqual(['provider_b']);
        expect(two.providers[0]).toMatchObject({
          success: false,
          error_details: one.providers[0]?.error_details,
        });
      } finally {
        await blocker.end();
      }
    });
  });
}
