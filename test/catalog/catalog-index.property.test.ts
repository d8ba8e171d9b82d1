// The in-memory catalogue index against the SQL query path (the reference, issue 9 item 2): on
// random filters, sorts and pages over a generated catalogue, both give the same page, rows and
// total; and the same recommendation candidates. On every backend, since each one's SQL is the
// reference for what that backend would have answered.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/catalog/index/catalog-index.js';
import { IndexRows } from '../../src/catalog/index/index-rows.js';
import { parseInstanceQuery, SORT_FIELDS } from '../../src/catalog/instance-query.js';
import { INSTANCE_FAMILIES, PROVIDER_NAMES, REGION_CODES } from '../../src/catalog/model.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import type { InstanceQuery } from '../../src/catalog/record-query.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { INSTANCE_QUERY_FIELDS } from '../support/instance-query-arbitrary.js';

const rawQuery = fc.record(INSTANCE_QUERY_FIELDS, { requiredKeys: [] });

/** Names whose code-point order differs from JavaScript's UTF-16 order (D16). */
const AWKWARD_NAMES = ['\u{1F600} smile', '\uFF3A wide', 'z plain', 'Z upper', 'é accent', ''];

for (const backend of await storeBackends())
  describeStoreBackend('catalogue index = SQL query path (property)', backend, () => {
    let store: CatalogStore;
    let database: IsolatedDatabase;
    let index: CatalogIndex;

    beforeAll(async () => {
      database = await backend.isolate();
      store = await createCatalogStore(database.url, {});
      await store.migrate();
      const catalogs = generateCatalogs(1_100, 5);
      const [a] = catalogs;
      a!.offers.slice(0, AWKWARD_NAMES.length * 3).forEach((o, i) => {
        Object.assign(o, { instanceName: AWKWARD_NAMES[i % AWKWARD_NAMES.length] });
      });
      // A divisor of 0 leaves a per-unit price without a value: last in both directions.
      // (Specs belong to the instance type: every region's offer of the type changes.)
      const noVcpu = a!.offers[30]!.instanceId;
      const noMemory = a!.offers.find((o) => o.instanceId !== noVcpu)!.instanceId;
      for (const o of a!.offers) {
        if (o.instanceId === noVcpu) Object.assign(o, { vcpu: 0 });
        if (o.instanceId === noMemory) Object.assign(o, { memoryMb: 0 });
      }
      await loadCatalogs(store, catalogs);
      // Some records unavailable, so the index must leave them out as SQL does (D15).
      await loadCatalogs(store, [{ ...a!, offers: a!.offers.slice(0, -40) }]);
      // As the holder loads it: the store's pages read into IndexRows, then the build.
      index = CatalogIndex.build(await store.scanCatalog((scan) => IndexRows.read(scan)));
    });
    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    it('holds every available record once, at the store’s version', async () => {
      expect(index.version).toBe(await store.catalogVersion());
      const all = await store.queryInstances({
        filter: {},
        sort: 'monthly_price',
        order: 'asc',
        limit: 100_000,
        offset: 0,
      });
      expect(index.size).toBe(all.total);
      expect(index.filter({}).map((r) => r.id)).toEqual(all.ids);
    });

    it('puts per-unit prices without a value (a divisor of 0) last in both directions, as SQL does', async () => {
      for (const sort of ['price_per_vcpu', 'price_per_gb'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const query: InstanceQuery = { filter: {}, sort, order, limit: 100_000, offset: 0 };
          const ids = index.query(query).ids;
          expect(ids).toEqual((await store.queryInstances(query)).ids);
          const last = index.get(ids.at(-1)!)!;
          expect(sort === 'price_per_vcpu' ? last.vcpu : last.memoryMb).toBe(0);
        }
      }
    });

    it('answers every parsed query with the SQL path’s page, rows and total', async () => {
      await fc.assert(
        fc.asyncProperty(rawQuery, async (raw) => {
          const parsed = parseInstanceQuery(raw);
          fc.pre(parsed.ok);
          if (!parsed.ok) return;
          const expected = await store.queryInstances(parsed.value.query);
          const actual = index.query(parsed.value.query);
          expect(actual.total).toBe(expected.total);
          expect(actual.ids).toEqual(expected.ids);
          expect(actual.rows).toEqual(expected.rows);
        }),
        { numRuns: 300 },
      );
    });

    // One condition alone is answered without testing a record (its candidate set is the
    // answer), and a range sorted by its own column as a slice of the order: pinned here, since
    // random queries rarely have exactly one filter.
    it('answers one filter alone, sorted by any field, as the SQL path does', async () => {
      const single = fc.oneof(
        fc.record({
          max_price: fc.double({ min: 0, max: 3_000, noNaN: true }).map((x) => x.toFixed(4)),
        }),
        fc.record({ min_vcpu: fc.integer({ min: 0, max: 40 }).map(String) }),
        fc.record({ max_vcpu: fc.integer({ min: 0, max: 80 }).map(String) }),
        fc.record({ min_memory_gb: fc.integer({ min: 0, max: 64 }).map(String) }),
        fc.record({ max_memory_gb: fc.integer({ min: 0, max: 600 }).map(String) }),
        fc.record({ provider: fc.constantFrom(...PROVIDER_NAMES) }),
        fc.record({ region: fc.constantFrom(...REGION_CODES) }),
        fc.record({ instance_family: fc.constantFrom(...INSTANCE_FAMILIES) }),
        fc.record({ has_gpu: fc.constantFrom('true', 'false') }),
        fc.record({ arch: fc.constantFrom('x86_64', 'arm64') }),
        fc.record({ cpu_allocation: fc.constantFrom('dedicated', 'burstable,shared') }),
        fc.constant({}),
      );
      const page = fc.record({
        sort_by: fc.constantFrom(...SORT_FIELDS),
        order: fc.constantFrom('asc', 'desc'),
        limit: fc.integer({ min: 1, max: 100 }).map(String),
        offset: fc
          .oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 1_200 }))
          .map(String),
      });
      await fc.assert(
        fc.asyncProperty(single, page, async (filter, paging) => {
          const parsed = parseInstanceQuery({ ...filter, ...paging });
          if (!parsed.ok) throw new Error(`valid query refused: ${parsed.problem.reason}`);
          const expected = await store.queryInstances(parsed.value.query);
          const actual = index.query(parsed.value.query);
          expect(actual.total).toBe(expected.total);
          expect(actual.ids).toEqual(expected.ids);
        }),
        { numRuns: 300 },
      );
    });

    it('agrees on fractional bounds given to the core directly', async () => {
      const filter = fc.record(
        {
          minVcpu: fc.double({ min: 0, max: 40, noNaN: true }),
          maxVcpu: fc.double({ min: 0, max: 80, noNaN: true }),
          minMemoryMb: fc.double({ min: 0, max: 70_000, noNaN: true }),
          maxMemoryMb: fc.double({ min: 0, max: 700_000, noNaN: true }),
          maxMonthlyMicros: fc.double({ min: 0, max: 3e9, noNaN: true }),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(filter, fc.constantFrom(...SORT_FIELDS), async (f, sortBy) => {
          const parsed = parseInstanceQuery({ sort_by: sortBy });
          if (!parsed.ok) throw new Error('valid query refused');
          const query: InstanceQuery = { ...parsed.value.query, filter: f, limit: 100 };
          const expected = await store.queryInstances(query);
          expect(index.query(query).ids).toEqual(expected.ids);
          expect(index.query(query).total).toBe(expected.total);
        }),
        { numRuns: 100 },
      );
    });
  });
