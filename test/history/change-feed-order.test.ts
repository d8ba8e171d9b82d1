// Issue 22 item 4: the change feed was paged by each item's `at`, a time taken before its apply
// committed. An apply that took its time first but committed last (provider A, held open here)
// put its items before a cursor a client had already passed (into provider B's items), so a
// client paging to the end missed them. The feed now pages by the catalogue version each apply
// commits (commit order), then id. On PostgreSQL A's apply is really held open inside its
// transaction by a third connection while B commits and the client reads; SQLite runs one
// writer at a time, so there A simply commits after B with the earlier time.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import type { ChangeCursor } from '../../src/storage/history-store.js';
import { decodeCursor, encodeCursor } from '../../src/history/history-query.js';
import { run } from '../storage/catalog-fixtures.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { eventually } from '../support/wait.js';

const T0 = new Date('2026-03-01T00:00:00.000Z');
const SINCE = new Date('2026-02-01T00:00:00.000Z');

for (const backend of await storeBackends()) {
  describeStoreBackend('change feed order (issue 22 item 4)', backend, () => {
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

    async function page(after: ChangeCursor | undefined, limit: number) {
      return await store.history.changes({
        since: SINCE,
        limit,
        ...(after === undefined ? {} : { after }),
      });
    }

    it('a client paging to the end sees every item once when applies commit out of time order', async () => {
      const [a, b] = generateCatalogs(40, 7);
      await loadCatalogs(store, [a!, b!], T0);
      const fromStart = (await page(undefined, 10_000)).changes.length;
      const reprice = (c: typeof a, by: number) => ({
        ...c!,
        offers: c!.offers.map((o) => ({ ...o, monthlyMicros: o.monthlyMicros + by })),
      });
      // A's data time is earlier than B's; A commits after B.
      const runA = run('provider_a', new Date(T0.getTime() + 60_000));
      const runB = run('provider_b', new Date(T0.getTime() + 120_000));
      const seen: number[] = [];

      let commitA: () => Promise<void>;
      let blocker: pg.Client | undefined;
      if (backend.name === 'postgres') {
        blocker = new pg.Client({ connectionString: database.url });
        await blocker.connect();
        await blocker.query('begin');
        // A's history step waits for these rows: its catalogue is written, its commit held.
        await blocker.query(
          `select h.id from price_history h join pricing p on p.id = h.pricing_id
             join instances i on i.id = p.instance_ref join providers pv on pv.id = i.provider_id
            where pv.name = 'provider_a' and h.valid_to is null for update of h`,
        );
        const appliedA = store.applyProviderCatalog(reprice(a, 10_000), runA);
        appliedA.catch(() => undefined);
        const watcher = new pg.Client({ connectionString: database.url });
        await watcher.connect();
        await eventually(async () => {
          const waiting = await watcher.query(
            `select 1 from pg_stat_activity where wait_event_type = 'Lock'
               and query like 'update "price_history"%'`,
          );
          if ((waiting.rowCount ?? 0) === 0) throw new Error('A is not applying yet');
        }, 10_000);
        await watcher.end();
        commitA = async () => {
          await blocker!.query('commit');
          await appliedA;
        };
      } else {
        commitA = async () => {
          await store.applyProviderCatalog(reprice(a, 10_000), runA);
        };
      }
      try {
        await store.applyProviderCatalog(reprice(b, 20_000), runB);
        // The client has read every item before B's and then one page of B's; A commits; the
        // client pages on to the end.
        const earlier = await page(undefined, fromStart);
        expect(earlier.next).not.toBeNull();
        let cursor: ChangeCursor = earlier.next!;
        const first = await page(cursor, 1);
        seen.push(...first.changes.map((c) => c.id));
        expect(first.next).not.toBeNull();
        cursor = first.next!;
        await commitA();
        for (;;) {
          const next = await page(cursor, 7);
          seen.push(...next.changes.map((c) => c.id));
          if (next.next === null) break;
          cursor = next.next;
        }
      } finally {
        await blocker?.end();
      }
      const all = (await page(undefined, 10_000)).changes.slice(fromStart).map((c) => c.id);
      expect(all.length).toBe(a!.offers.length + b!.offers.length);
      expect(seen.length).toBe(new Set(seen).size);
      expect([...seen].sort((x, y) => x - y)).toEqual([...all].sort((x, y) => x - y));
    });

    it('a cursor of the earlier form (time.id) resumes right after its item', async () => {
      const all = (await page(undefined, 10_000)).changes;
      expect(all.length).toBeGreaterThan(3);
      const pivot = all[2]!;
      const legacy = Buffer.from(`${pivot.at.getTime()}.${pivot.id}`).toString('base64url');
      const decoded = decodeCursor(legacy);
      expect(decoded).toEqual({ id: pivot.id });
      const resumed = await page(decoded, 10_000);
      expect(resumed.changes.map((c) => c.id)).toEqual(all.slice(3).map((c) => c.id));
      // A cursor this API returns now round-trips.
      const current = (await page(undefined, 3)).next!;
      expect(decodeCursor(encodeCursor(current))).toEqual(current);
    });
  });
}
