import { beforeEach, describe, expect, it } from 'vitest';
import type { InstanceFilter, SortColumn } from '../../../src/catalog/record-query.js';
import type { InstanceRow } from '../../../src/catalog/records.js';
import { readAll } from '../catalog-fixtures.js';
import { AVAILABLE_OFFERS, loadQueryCatalogue } from './query-fixture.js';
import type { StoreContext } from './store-context.js';

const SORTS: readonly SortColumn[] = [
  'monthly_price',
  'hourly_price',
  'vcpu',
  'memory_mb',
  'storage_gb',
  'instance_name',
  'provider',
  'region',
  'price_per_vcpu',
  'price_per_gb',
  'coremark',
  'coremark_per_price',
];

const SORT_KEY: Record<SortColumn, (row: InstanceRow) => number | string> = {
  monthly_price: (r) => r.monthlyMicros,
  hourly_price: (r) => r.hourlyMicros,
  vcpu: (r) => r.vcpu,
  memory_mb: (r) => r.memoryMb,
  storage_gb: (r) => r.storageGb,
  instance_name: (r) => r.instanceName,
  provider: (r) => r.providerName,
  region: (r) => r.regionCode,
  price_per_vcpu: (r) => r.monthlyMicros / r.vcpu,
  price_per_gb: (r) => r.monthlyMicros / r.memoryMb,
  coremark: (r) => r.facts.coremark?.score ?? NaN,
  coremark_per_price: (r) => (r.facts.coremark?.score ?? NaN) / r.monthlyMicros,
};

function compareCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) ?? 0);
  const y = [...b].map((c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return x.length - y.length;
}

/** The model of D16: the sort column in `order`, then id ascending whatever the order. */
function modelSort(rows: readonly InstanceRow[], sort: SortColumn, order: 'asc' | 'desc') {
  return [...rows].sort((p, q) => {
    const a = SORT_KEY[sort](p);
    const b = SORT_KEY[sort](q);
    // No value (NaN: a divisor of 0, no score) goes last in both directions.
    const aNone = typeof a === 'number' && Number.isNaN(a);
    const bNone = typeof b === 'number' && Number.isNaN(b);
    if (aNone !== bNone) return aNone ? 1 : -1;
    if (aNone && bNone) return p.id - q.id;
    const c =
      typeof a === 'number' && typeof b === 'number'
        ? a - b
        : compareCodePoints(String(a), String(b));
    if (c !== 0) return order === 'asc' ? c : -c;
    return p.id - q.id;
  });
}

const key = (row: InstanceRow) => `${row.instanceId}@${row.regionCode}`;

export function queryContract(ctx: StoreContext): void {
  describe('queryInstances', () => {
    let all: InstanceRow[];
    beforeEach(async () => {
      await loadQueryCatalogue(ctx.store);
      all = await readAll(ctx.store);
    });

    const query = (filter: InstanceFilter, extra: { limit?: number; offset?: number } = {}) =>
      ctx.store.queryInstances({
        filter,
        sort: 'monthly_price',
        order: 'asc',
        limit: extra.limit ?? 100,
        offset: extra.offset ?? 0,
      });

    it('returns only available records, each once', () => {
      expect(all).toHaveLength(AVAILABLE_OFFERS.length);
      expect(new Set(all.map(key)).size).toBe(all.length);
      expect(all.every((row) => row.available === 1)).toBe(true);
      expect(all.map((row) => row.instanceId)).not.toContain('c9');
    });

    const filterCases: [string, InstanceFilter, string[]][] = [
      ['provider', { provider: 'provider_b' }, ['b1@icn', 'b1@nrt', 'b2@itm', 'b3@nrt']],
      ['region (exact code)', { region: 'ap-northeast' }, ['a1@ap-northeast', 'a3@ap-northeast']],
      ['region nrt', { region: 'nrt' }, ['b1@nrt', 'b3@nrt']],
      ['minVcpu', { minVcpu: 4 }, ['a3@ap-northeast', 'b2@itm', 'c2@ap-southeast-1']],
      [
        'maxVcpu',
        { maxVcpu: 1 },
        ['a1@ap-northeast', 'a1@ap-south', 'b1@icn', 'b1@nrt', 'c3@ap-northeast-2'],
      ],
      [
        'minMemoryMb',
        { minMemoryMb: 4096 },
        ['a3@ap-northeast', 'b2@itm', 'c1@ap-northeast-1', 'c1@ap-east-1', 'c2@ap-southeast-1'],
      ],
      ['maxMemoryMb', { maxMemoryMb: 512 }, ['b1@icn', 'b1@nrt']],
      [
        'fractional minMemoryMb',
        { minMemoryMb: 4095.5 },
        ['a3@ap-northeast', 'b2@itm', 'c1@ap-northeast-1', 'c1@ap-east-1', 'c2@ap-southeast-1'],
      ],
      ['fractional maxMemoryMb', { maxMemoryMb: 1023.5 }, ['b1@icn', 'b1@nrt']],
      [
        'maxMonthlyMicros is inclusive',
        { maxMonthlyMicros: 5_000_000 },
        ['a1@ap-northeast', 'a1@ap-south', 'b1@icn', 'b1@nrt', 'c3@ap-northeast-2'],
      ],
      ['maxMonthlyMicros one below', { maxMonthlyMicros: 4_999_999 }, ['b1@icn']],
      ['family', { family: 'compute' }, ['a2@ap-southeast', 'c3@ap-northeast-2']],
      ['hasGpu true', { hasGpu: true }, ['a3@ap-northeast', 'c2@ap-southeast-1']],
      [
        'combined',
        { provider: 'provider_c', minVcpu: 2, hasGpu: false },
        ['c1@ap-northeast-1', 'c1@ap-east-1'],
      ],
      ['nothing matching', { provider: 'provider_a', family: 'memory' }, []],
    ];
    for (const [name, filter, expected] of filterCases) {
      it(`filters by ${name}`, async () => {
        const page = await query(filter);
        expect(page.rows.map(key).sort()).toEqual([...expected].sort());
        expect(page.total).toBe(expected.length);
      });
    }

    it('filters hasGpu false to records without a GPU', async () => {
      const page = await query({ hasGpu: false });
      expect(page.total).toBe(all.length - 2);
      expect(page.rows.every((row) => row.gpuCount === 0)).toBe(true);
    });

    for (const sort of SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        it(`sorts by ${sort} ${order}, ties by id ascending`, async () => {
          const page = await ctx.store.queryInstances({
            filter: {},
            sort,
            order,
            limit: 100,
            offset: 0,
          });
          expect(page.rows.map((r) => r.id)).toEqual(modelSort(all, sort, order).map((r) => r.id));
        });
      }
    }

    it('sorts instance_name by code point, not dictionary order', async () => {
      const page = await ctx.store.queryInstances({
        filter: {},
        sort: 'instance_name',
        order: 'asc',
        limit: 100,
        offset: 0,
      });
      expect([...new Set(page.rows.map((r) => r.instanceName))]).toEqual([
        'Beta',
        'Compute 2',
        'GPU 8',
        'Standard 1',
        'a-b',
        'a_b',
        'ab',
        'alpha',
        'Ábc',
      ]);
    });

    it('breaks price ties by id ascending in descending order too', async () => {
      const page = await ctx.store.queryInstances({
        filter: {},
        sort: 'monthly_price',
        order: 'desc',
        limit: 100,
        offset: 0,
      });
      const tied = page.rows.filter((r) => r.monthlyMicros === 5_000_000).map((r) => r.id);
      expect(tied).toHaveLength(4);
      expect(tied).toEqual([...tied].sort((a, b) => a - b));
      expect(page.rows.at(-1)?.monthlyMicros).toBe(3_500_000);
    });

    for (const [sort, order] of [
      ['monthly_price', 'desc'],
      ['instance_name', 'asc'],
      ['provider', 'asc'],
      ['region', 'desc'],
      ['vcpu', 'asc'],
    ] as const) {
      it(`pages through ${sort} ${order} without overlap or gap`, async () => {
        const whole = await ctx.store.queryInstances({
          filter: {},
          sort,
          order,
          limit: 100,
          offset: 0,
        });
        const pages: InstanceRow[] = [];
        for (let offset = 0; offset < whole.total; offset += 5) {
          const page = await ctx.store.queryInstances({
            filter: {},
            sort,
            order,
            limit: 5,
            offset,
          });
          expect(page.total).toBe(whole.total);
          pages.push(...page.rows);
        }
        expect(pages.map((r) => r.id)).toEqual(whole.rows.map((r) => r.id));
      });
    }

    it('pages a filtered result with the filtered total', async () => {
      const page = await query({ provider: 'provider_a' }, { limit: 3, offset: 3 });
      expect(page.total).toBe(4);
      expect(page.rows.map(key)).toEqual(['a3@ap-northeast']);
    });

    it('reports the total when the offset is at or past the end', async () => {
      for (const offset of [all.length, all.length + 50]) {
        const page = await query({}, { limit: 10, offset });
        expect(page).toEqual({ ids: [], rows: [], total: all.length });
      }
      expect(await query({ provider: 'provider_b' }, { limit: 10, offset: 4 })).toEqual({
        ids: [],
        rows: [],
        total: 4,
      });
      expect(
        await query({ family: 'memory', provider: 'provider_a' }, { limit: 10, offset: 0 }),
      ).toEqual({ ids: [], rows: [], total: 0 });
    });

    it('skips the rows of records the caller already holds, keeping ids and total', async () => {
      const full = await query({}, { limit: 10, offset: 0 });
      const held = new Set(full.ids.filter((_, i) => i % 2 === 0));
      const page = await ctx.store.queryInstances(
        { filter: {}, sort: 'monthly_price', order: 'asc', limit: 10, offset: 0 },
        { known: (id) => held.has(id) },
      );
      expect(page.ids).toEqual(full.ids);
      expect(page.total).toBe(full.total);
      expect(page.rows.map((r) => r.id)).toEqual(full.ids.filter((id) => !held.has(id)));
      expect(page.rows).toEqual(full.rows.filter((r) => !held.has(r.id)));
      // Every record held: the answer is ids and total only (the one-statement path).
      const allHeld = await ctx.store.queryInstances(
        { filter: {}, sort: 'monthly_price', order: 'asc', limit: 10, offset: 0 },
        { known: () => true },
      );
      expect(allHeld).toEqual({ ids: full.ids, rows: [], total: full.total });
    });

    it('returns the joined provider and region fields', async () => {
      const [gpu] = (await query({ provider: 'provider_a', hasGpu: true })).rows;
      expect(gpu).toMatchObject({
        instanceId: 'a3',
        instanceName: 'GPU 8',
        vcpu: 8,
        memoryMb: 32_768,
        storageGb: 640,
        gpuCount: 1,
        gpuType: 'NVIDIA T4',
        family: 'gpu',
        providerName: 'provider_a',
        providerDisplayName: 'Linode',
        regionCode: 'ap-northeast',
        regionName: 'Tokyo',
        countryCode: 'JP',
        hourlyMicros: 684_932,
        monthlyMicros: 500_000_000,
        available: 1,
      });
      const osaka = (await query({ region: 'ap-south' })).rows[0];
      expect([osaka?.regionName, osaka?.countryCode]).toEqual(['Osaka', 'JP']);
    });
  });
}
