// GET /instance-types (D46) against a real app and SQLite file with a generated catalogue:
// every cell is the record /instances shows, in any currency; available_in, sorts and paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASIAN_REGIONS, REGION_CODES } from '../../src/catalog/model.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Cell {
  id: number;
  hourly_price: number;
  monthly_price: number;
}
interface TypeRow {
  provider: string;
  instance_id: string;
  instance_name: string;
  vcpu: number;
  memory_mb: number;
  prices: Record<string, Cell>;
  cheapest_region: string;
  min_monthly_price: number;
  max_monthly_price: number;
  spread_pct: number | null;
}
interface TypesBody {
  data: {
    instance_types: TypeRow[];
    pagination: { total: number; limit: number; offset: number; has_more: boolean };
    metadata: {
      regions: string[];
      available_in: string;
      filters_applied: Record<string, unknown>;
      exchange_rate?: { currency: string };
      last_sync: string | null;
    };
  };
}
interface InstanceJson {
  id: number;
  instance_id: string;
  instance_name: string;
  vcpu: number;
  provider: { name: string };
  region: { region_code: string };
  pricing: { hourly_price: number; monthly_price: number };
}

describe('GET /instance-types', () => {
  let t: TestApp;
  let client = 0;
  const get = async <T>(url: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url,
      headers: auth,
      remoteAddress: `10.9.${Math.floor(++client / 200)}.${client % 200}`,
    });
    return { status: response.statusCode, headers: response.headers, body: response.json<T>() };
  };

  /** Every available record as /instances shows it, by id. */
  async function allInstances(query: string): Promise<Map<number, InstanceJson>> {
    const records = new Map<number, InstanceJson>();
    for (let offset = 0; ; offset += 100) {
      const { body } = await get<{
        data: { instances: InstanceJson[]; pagination: { has_more: boolean } };
      }>(`/instances?limit=100&offset=${offset}${query}`);
      for (const record of body.data.instances) records.set(record.id, record);
      if (!body.data.pagination.has_more) return records;
    }
  }

  async function allTypes(query: string): Promise<TypeRow[]> {
    const rows: TypeRow[] = [];
    for (let offset = 0; ; offset += 100) {
      const { status, body } = await get<TypesBody>(
        `/instance-types?limit=100&offset=${offset}${query}`,
      );
      expect(status).toBe(200);
      rows.push(...body.data.instance_types);
      if (!body.data.pagination.has_more) return rows;
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(600, 5));
  });
  afterAll(() => t.close());

  it.each(['USD', 'JPY', 'KRW', 'SGD'])(
    'shows in every cell exactly the record /instances shows, each record once (%s)',
    async (currency) => {
      const records = await allInstances(`&currency=${currency}`);
      const rows = await allTypes(`&currency=${currency}`);
      const seen = new Set<number>();
      for (const row of rows) {
        const cells = Object.entries(row.prices);
        expect(cells.length).toBeGreaterThan(0);
        expect(cells.map(([region]) => region)).toEqual(
          REGION_CODES.filter((code) => code in row.prices),
        );
        for (const [region, cell] of cells) {
          const record = records.get(cell.id)!;
          expect(record).toBeDefined();
          expect(seen.has(cell.id)).toBe(false);
          seen.add(cell.id);
          expect([record.provider.name, record.instance_id, record.region.region_code]).toEqual([
            row.provider,
            row.instance_id,
            region,
          ]);
          expect(cell).toEqual({
            id: record.id,
            hourly_price: record.pricing.hourly_price,
            monthly_price: record.pricing.monthly_price,
          });
        }
        const monthly = cells.map(([, cell]) => cell.monthly_price);
        expect(row.min_monthly_price).toBe(Math.min(...monthly));
        expect(row.max_monthly_price).toBe(Math.max(...monthly));
        expect(row.prices[row.cheapest_region]!.monthly_price).toBe(row.min_monthly_price);
      }
      expect(seen.size).toBe(records.size);
      // Default sort: cheapest first.
      const mins = rows.map((row) => row.min_monthly_price);
      expect(mins).toEqual([...mins].sort((a, b) => a - b));
    },
  );

  it('keeps with available_in=all only types offered in every listed region of their provider', async () => {
    const regions = ['ap-northeast-1', 'ap-east-1', 'icn', 'nrt'];
    // A price bound leaves some types without a cell in some regions (prices differ per region).
    const any = await allTypes(`&regions=${regions.join(',')}&max_price=80`);
    const all = await allTypes(`&regions=${regions.join(',')}&max_price=80&available_in=all`);
    const complete = (row: TypeRow) =>
      ASIAN_REGIONS.filter(
        (r) => r.provider === row.provider && regions.includes(r.regionCode),
      ).every((r) => r.regionCode in row.prices);
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThan(any.length);
    expect(all.map((r) => `${r.provider}/${r.instance_id}`).sort()).toEqual(
      any
        .filter(complete)
        .map((r) => `${r.provider}/${r.instance_id}`)
        .sort(),
    );
    for (const row of any) {
      expect(row.provider).not.toBe('provider_a'); // none of its regions is listed
      expect(Object.keys(row.prices).every((code) => regions.includes(code))).toBe(true);
      expect(Object.keys(row.prices)).toEqual(regions.filter((code) => code in row.prices));
    }
  });

  it('echoes regions, available_in, the filters and the exchange rate in metadata', async () => {
    const { body, headers } = await get<TypesBody>(
      '/instance-types?provider=provider_c&min_vcpu=2&regions=ap-east-1,ap-northeast-2,ap-east-1&available_in=all&currency=HKD&limit=3',
    );
    expect(headers['cache-control']).toBe('public, max-age=300');
    expect(body.data.metadata).toMatchObject({
      regions: ['ap-east-1', 'ap-northeast-2'],
      available_in: 'all',
      filters_applied: { provider: 'provider_c', min_vcpu: 2 },
      exchange_rate: { currency: 'HKD' },
    });
    expect(body.data.pagination).toMatchObject({ limit: 3, offset: 0, has_more: true });
    for (const row of body.data.instance_types) {
      expect(row.vcpu).toBeGreaterThanOrEqual(2);
      expect(Object.keys(row.prices)).toEqual(['ap-east-1', 'ap-northeast-2']);
    }
  });

  it('sorts by spread, largest first, with the exact percentage of the shown USD prices', async () => {
    const rows = await allTypes('&sort_by=spread&order=desc&provider=provider_b');
    expect(rows.length).toBeGreaterThan(2);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i - 1]!.spread_pct!).toBeGreaterThanOrEqual(rows[i]!.spread_pct!);
    }
    for (const row of rows) {
      // USD monthly prices are whole cents, so the shown prices are the exact ones.
      const cents = (n: number) => Math.round(n * 100);
      const min = cents(row.min_monthly_price);
      const max = cents(row.max_monthly_price);
      expect(row.spread_pct).toBe(Math.round(((max - min) * 10_000) / min) / 100);
    }
  });

  it('applies max_price per region: a region over the bound has no cell', async () => {
    const rows = await allTypes('&max_price=40&provider=provider_c');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      for (const cell of Object.values(row.prices))
        expect(cell.monthly_price).toBeLessThanOrEqual(40);
    }
  });
});
