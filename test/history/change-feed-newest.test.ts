// GET /changes's extensions (ADR 0022) over a real app on each backend: `order=newest` pages to
// the end in commit order reversed, `kind` takes a list, `sync_id` narrows to one sync, and
// `summary=true` counts what the pages hold, whatever the page. Four syncs of three providers
// (a first import, two repricings with removals, a return) give every kind several syncs.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ProviderCatalog } from '../../src/catalog/offers.js';
import { run } from '../storage/catalog-fixtures.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

const T0 = new Date('2026-03-01T00:00:00.000Z');
const SINCE = '2026-02-01';
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

interface Item {
  id: number;
  at: string;
  sync_id: string;
  kind: string;
  instance: { provider: string };
}
interface Summary {
  total: number;
  kinds: Record<string, number>;
  syncs: { sync_id: string; at: string; kind: string; provider: string; count: number }[];
  syncs_complete: boolean;
}
interface Page {
  changes: Item[];
  next_cursor: string | null;
  summary?: Summary;
}

/** Every `step`th offer's price moved by `by`, and every `drop`th offer left out. */
function reprice(catalog: ProviderCatalog, step: number, by: number, drop: number) {
  return {
    ...catalog,
    offers: catalog.offers
      .filter((_, i) => i % drop !== 1)
      .map((o, i) => (i % step === 0 ? { ...o, monthlyMicros: o.monthlyMicros + by } : o)),
  };
}

for (const backend of await storeBackends()) {
  describeStoreBackend('GET /changes newest first, by kinds, with a summary', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;
    let client = 0;
    const get = (url: string) =>
      t.app.inject({ method: 'GET', url, headers: auth, remoteAddress: `10.22.0.${++client}` });
    const page = async (query: string): Promise<Page> => {
      const response = await get(`/changes?since=${SINCE}&${query}`);
      expect(response.statusCode, query).toBe(200);
      return response.json<{ data: Page }>().data;
    };
    /** Every item of `query`, page by page with the cursor; asserts the page sizes. */
    const walk = async (query: string, limit: number): Promise<Item[]> => {
      const items: Item[] = [];
      let cursor: string | null = null;
      do {
        const next: Page = await page(
          `${query}&limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        if (next.next_cursor !== null) expect(next.changes).toHaveLength(limit);
        items.push(...next.changes);
        cursor = next.next_cursor;
      } while (cursor !== null);
      return items;
    };

    beforeAll(async () => {
      database = await backend.isolate();
      t = await createTestApp({ DATABASE_URL: database.url });
      const store = t.services.store;
      const catalogs = generateCatalogs(120, 22);
      const syncs = [
        catalogs,
        catalogs.map((c) => reprice(c, 3, 1_000_000, 7)),
        catalogs.map((c) => reprice(c, 4, -500_000, 5)),
        catalogs,
      ];
      for (const [n, version] of syncs.entries()) {
        for (const catalog of version) {
          await store.applyProviderCatalog(catalog, run(catalog.provider, at(n * 10 + 1)));
        }
      }
    });
    afterAll(async () => {
      await t.close();
      await database.drop();
    });

    it('pages newest first to the end: the oldest-first list reversed, each item once', async () => {
      const oldest = await walk('order=oldest', 500);
      expect(oldest.length).toBeGreaterThan(150);
      expect(await walk('', 37)).toEqual(oldest);
      const newest = await walk('order=newest', 37);
      expect(newest.map((c) => c.id)).toEqual(oldest.map((c) => c.id).reverse());
      expect(new Set(newest.map((c) => c.id)).size).toBe(newest.length);
      expect(await walk('order=newest', 7)).toEqual(newest);
      // A cursor is a position: newest first, the page continues below it.
      const first = await page('limit=50');
      const below = await page(`order=newest&limit=500&cursor=${first.next_cursor}`);
      expect(below.changes).toEqual(first.changes.slice(0, 49).reverse());
      expect(below.next_cursor).toBeNull();
    });

    it('takes several kinds: their items, in the feed order, as one query per kind merged', async () => {
      const all = await walk('order=newest', 500);
      for (const kinds of ['price_increased,price_decreased', 'removed,added,returned']) {
        const wanted = kinds.split(',');
        const listed = await walk(`order=newest&kind=${kinds}`, 23);
        expect(listed.length).toBeGreaterThan(0);
        expect(listed).toEqual(all.filter((c) => wanted.includes(c.kind)));
      }
      // One kind, and a kind twice, as before.
      expect(await walk('kind=removed', 500)).toEqual(
        (await walk('', 500)).filter((c) => c.kind === 'removed'),
      );
      expect(await walk('kind=removed,removed', 500)).toEqual(await walk('kind=removed', 500));
    });

    it('narrows to one sync with sync_id', async () => {
      const all = await walk('', 500);
      const syncId = all.find((c) => c.kind === 'removed')!.sync_id;
      const one = await walk(`sync_id=${syncId}&kind=removed`, 500);
      expect(one).toEqual(all.filter((c) => c.sync_id === syncId && c.kind === 'removed'));
      expect((await page('sync_id=sync_0_nothing')).changes).toEqual([]);
    });

    it('summarises the whole window and filters, whatever the page: counts equal the items', async () => {
      for (const query of [
        '',
        'kind=price_increased,price_decreased',
        'kind=added,removed,returned&provider=provider_b',
        'city=tokyo',
        `until=${at(25).toISOString()}`,
      ]) {
        const items = await walk(query, 500);
        const first = await page(`${query}&order=newest&limit=5&summary=true`);
        const summary = first.summary!;
        const later = await page(`${query}&limit=2&summary=true&cursor=${first.next_cursor}`);
        expect(later.summary, query).toEqual(summary);
        expect(summary.total, query).toBe(items.length);
        const kinds = ['added', 'removed', 'returned', 'price_increased', 'price_decreased'];
        expect(summary.kinds, query).toEqual(
          Object.fromEntries(kinds.map((k) => [k, items.filter((c) => c.kind === k).length])),
        );
        const groups = new Map<string, number>();
        for (const c of items) {
          const key = `${c.sync_id} ${c.kind} ${c.instance.provider}`;
          groups.set(key, (groups.get(key) ?? 0) + 1);
        }
        expect(summary.syncs_complete).toBe(true);
        expect(
          new Map(summary.syncs.map((g) => [`${g.sync_id} ${g.kind} ${g.provider}`, g.count])),
          query,
        ).toEqual(groups);
        // Newest sync first, each with its items' time.
        const times = summary.syncs.map((g) => g.at);
        expect(times).toEqual([...times].sort().reverse());
        for (const g of summary.syncs) {
          expect(items.find((c) => c.sync_id === g.sync_id)!.at).toBe(g.at);
        }
      }
      // Not asked for: no summary, as D40 answers.
      expect(await page('limit=1')).not.toHaveProperty('summary');
      expect(await page('limit=1&summary=false')).not.toHaveProperty('summary');
    });

    it('keeps the newest groups when there are more than the limit, and says so', async () => {
      const history = t.services.store.history;
      const filter = { since: new Date(SINCE) };
      const all = await history.changeSummary(filter, 10_000);
      expect(all.groupsComplete).toBe(true);
      expect(all.groups.length).toBeGreaterThan(2);
      const capped = await history.changeSummary(filter, 2);
      expect(capped.groupsComplete).toBe(false);
      expect(capped.groups).toEqual(all.groups.slice(0, 2));
      // The cap cuts the groups only: the totals still count every item.
      expect([capped.total, capped.kinds]).toEqual([all.total, all.kinds]);
    });

    it('refuses bad values with the 400 envelope', async () => {
      const cases: [string, string, RegExp][] = [
        ['kind=price_increased,bogus', 'kind', /"bogus" is not one of the allowed values/],
        ['kind=bogus', 'kind', /^is not one of the allowed values$/],
        ['kind=added,', 'kind', /separated by single commas/],
        ['order=desc', 'order', /^is not one of the allowed values$/],
        ['order=newest&order=oldest', 'order', /at most once/],
        ['summary=yes', 'summary', /^is not one of the allowed values$/],
        ['sync_id=a%20b', 'sync_id', /sync_id/],
      ];
      for (const [query, parameter, reason] of cases) {
        const response = await get(`/changes?${query}`);
        expect(response.statusCode, query).toBe(400);
        const body = response.json<{
          success: boolean;
          error: { code: string; details: { parameter: string; reason: string } };
        }>();
        expect(body.success).toBe(false);
        expect(body.error.code, query).toBe('INVALID_PARAMETER');
        expect(body.error.details.parameter, query).toBe(parameter);
        expect(body.error.details.reason, query).toMatch(reason);
      }
    });
  });
}
