// Property tests: filters, sorts and pagination over a generated catalogue agree with a plain
// in-memory model of the rules (D16, D18), on every backend.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseInstanceQuery, SORT_FIELDS } from '../../src/catalog/instance-query.js';
import { INSTANCE_FAMILIES, PROVIDER_NAMES, REGION_CODES } from '../../src/catalog/model.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import type { InstanceRow } from '../../src/catalog/records.js';
import type { SortColumn } from '../../src/catalog/record-query.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';

const queryArbitrary = fc.record(
  {
    provider: fc.constantFrom(...PROVIDER_NAMES),
    region: fc.constantFrom(...REGION_CODES),
    min_vcpu: fc.integer({ min: 0, max: 40 }).map(String),
    max_vcpu: fc.integer({ min: 20, max: 80 }).map(String),
    min_memory_gb: fc.constantFrom('0', '0.5', '1', '2', '8', '16.25'),
    max_memory_gb: fc.constantFrom('32', '64', '128.5', '1024'),
    max_price: fc.constantFrom('10', '49.99', '100', '500.5', '100000'),
    instance_family: fc.constantFrom(...INSTANCE_FAMILIES),
    has_gpu: fc.constantFrom('true', 'false'),
    sort_by: fc.constantFrom(...SORT_FIELDS),
    order: fc.constantFrom('asc', 'desc'),
    limit: fc.integer({ min: 1, max: 100 }).map(String),
    offset: fc.integer({ min: 0, max: 400 }).map(String),
  },
  { requiredKeys: [] },
);

function sortValue(row: InstanceRow, column: SortColumn): number | string {
  switch (column) {
    case 'monthly_price':
      return row.monthlyMicros;
    case 'hourly_price':
      return row.hourlyMicros;
    case 'vcpu':
      return row.vcpu;
    case 'memory_mb':
      return row.memoryMb;
    case 'storage_gb':
      return row.storageGb;
    case 'instance_name':
      return row.instanceName;
    case 'provider':
      return row.providerName;
    case 'region':
      return row.regionCode;
    case 'price_per_vcpu':
      return row.monthlyMicros / row.vcpu;
    case 'price_per_gb':
      return row.monthlyMicros / row.memoryMb;
    // No score (or a free record's ratio) is no value: NaN, last in both directions (D63).
    case 'coremark':
      return row.facts.coremark?.score ?? NaN;
    case 'coremark_per_price':
      return row.monthlyMicros === 0 ? NaN : (row.facts.coremark?.score ?? NaN) / row.monthlyMicros;
  }
}

/** Code-point comparison for strings (D16), numeric for numbers. */
function compare(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

for (const backend of await storeBackends())
  describeStoreBackend('GET /instances query invariants (property)', backend, () => {
    let store: CatalogStore;
    let database: IsolatedDatabase;
    let all: readonly InstanceRow[];

    beforeAll(async () => {
      database = await backend.isolate();
      store = await createCatalogStore(database.url, {});
      await store.migrate();
      await loadCatalogs(store, generateCatalogs(900, 3));
      all = (
        await store.queryInstances({
          filter: {},
          sort: 'monthly_price',
          order: 'asc',
          limit: 100_000,
          offset: 0,
        })
      ).rows;
    });
    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    it('returns exactly the model’s page and total for any valid query', async () => {
      expect(all.length).toBe(900);
      await fc.assert(
        fc.asyncProperty(queryArbitrary, async (raw) => {
          const parsed = parseInstanceQuery(raw);
          fc.pre(parsed.ok);
          if (!parsed.ok) return;
          const { filter, sort, order, limit, offset } = parsed.value.query;
          const matching = all.filter(
            (r) =>
              (filter.provider === undefined || r.providerName === filter.provider) &&
              (filter.region === undefined || r.regionCode === filter.region) &&
              (filter.minVcpu === undefined || r.vcpu >= filter.minVcpu) &&
              (filter.maxVcpu === undefined || r.vcpu <= filter.maxVcpu) &&
              (filter.minMemoryMb === undefined ||
                r.memoryMb / 1024 >= filter.minMemoryMb / 1024) &&
              (filter.maxMemoryMb === undefined ||
                r.memoryMb / 1024 <= filter.maxMemoryMb / 1024) &&
              (filter.maxMonthlyMicros === undefined ||
                r.monthlyMicros <= filter.maxMonthlyMicros) &&
              (filter.family === undefined || r.family === filter.family) &&
              (filter.hasGpu === undefined || r.gpuCount > 0 === filter.hasGpu),
          );
          const direction = order === 'asc' ? 1 : -1;
          const expected = [...matching].sort((a, b) => {
            const [va, vb] = [sortValue(a, sort), sortValue(b, sort)];
            const [noA, noB] = [Number.isNaN(va), Number.isNaN(vb)];
            if (noA || noB) return Number(noA) - Number(noB) || a.id - b.id;
            return direction * compare(va, vb) || a.id - b.id;
          });
          const page = await store.queryInstances(parsed.value.query);
          expect(page.total).toBe(expected.length);
          expect(page.rows.map((r) => r.id)).toEqual(
            expected.slice(offset, offset + limit).map((r) => r.id),
          );
        }),
        { numRuns: 150 },
      );
    });

    it('pages of any size cover the sorted result exactly once', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 100 }),
          fc.constantFrom(...SORT_FIELDS),
          async (limit, sortBy) => {
            const parsed = parseInstanceQuery({ sort_by: sortBy, provider: 'provider_a' });
            if (!parsed.ok) throw new Error('valid query refused');
            const seen: number[] = [];
            for (let offset = 0; ; offset += limit) {
              const page = await store.queryInstances({ ...parsed.value.query, limit, offset });
              seen.push(...page.rows.map((r) => r.id));
              if (page.rows.length < limit) break;
            }
            const total = (
              await store.queryInstances({ ...parsed.value.query, limit: 1, offset: 0 })
            ).total;
            expect(seen).toHaveLength(total);
            expect(new Set(seen).size).toBe(total);
          },
        ),
        { numRuns: 30 },
      );
    });
  });
